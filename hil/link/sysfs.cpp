#include "hil/link/sysfs.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/sys/unique_fd.hpp"

namespace hil::link {
namespace {

// Parses a decimal integer that makes up the whole of text.
std::optional<long> parse_long(const std::string& text) {
  long v = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  return v;
}

}  // namespace

sysfs_reader::sysfs_reader(std::filesystem::path root) : root_(std::move(root)) {}

std::optional<std::string> sysfs_reader::read_attr(const std::string& ifname, const char* attr,
                                                   int& err) const {
  // read(2) rather than ifstream: sysfs attributes report driver errors (EINVAL for speed on a
  // down link) through read, and that errno is the information.
  const auto path = root_ / ifname / attr;
  const sys::unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    err = errno;
    return std::nullopt;
  }
  std::array<char, 128> buf{};
  const ssize_t n = ::read(fd.get(), buf.data(), buf.size() - 1);
  if (n < 0) {
    err = errno;
    return std::nullopt;
  }
  std::string s(buf.data(), static_cast<std::size_t>(n));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  err = 0;
  return s;
}

int sysfs_reader::mtu(const std::string& ifname) const {
  int err = 0;
  const auto text = read_attr(ifname, "mtu", err);
  if (!text) sys::throw_errno(err, fmt::format("reading {}", (root_ / ifname / "mtu").string()));
  const auto v = parse_long(*text);
  if (!v) {
    throw std::system_error(
        std::make_error_code(std::errc::illegal_byte_sequence),
        fmt::format("{}/{}/mtu holds '{}', not a number", root_.string(), ifname, *text));
  }
  return static_cast<int>(*v);
}

std::optional<int> sysfs_reader::speed_mbps(const std::string& ifname) const {
  int err = 0;
  const auto text = read_attr(ifname, "speed", err);
  if (!text) return std::nullopt;
  const auto v = parse_long(*text);
  if (!v || *v <= 0) return std::nullopt;  // -1 (SPEED_UNKNOWN) on many drivers
  return static_cast<int>(*v);
}

std::string sysfs_reader::duplex(const std::string& ifname) const {
  int err = 0;
  return read_attr(ifname, "duplex", err).value_or("unknown");
}

std::string sysfs_reader::operstate(const std::string& ifname) const {
  int err = 0;
  return read_attr(ifname, "operstate", err).value_or("unknown");
}

}  // namespace hil::link
