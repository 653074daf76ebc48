#include "hil/sys/board_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include <fmt/format.h>

#include "hil/sys/error.hpp"

namespace hil::sys {
namespace {

// The pid the holder wrote, or "unknown" (it may be between open and write).
std::string holder_of(int fd) {
  std::string text(32, '\0');
  const ssize_t n = ::pread(fd, text.data(), text.size(), 0);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text.empty() ? std::string("unknown") : text;
}

}  // namespace

board_lock::board_lock(const std::filesystem::path& dir, std::string_view board) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  const auto file = dir / (std::string(board) + ".lock");
  fd_ = unique_fd(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  if (!fd_) throw_last_errno(fmt::format("cannot open the board lock {}", file.string()));
  if (::flock(fd_.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) throw_last_errno(fmt::format("cannot lock {}", file.string()));
    throw board_busy(fmt::format(
        "board {} is in use by another case (pid {}, lock {}): two cases must never share a "
        "board; run the farm through ctest --resource-spec-file, and one runner per farm",
        board, holder_of(fd_.get()), file.string()));
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_.get(), 0) != 0 ||
      ::pwrite(fd_.get(), pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    throw_last_errno(fmt::format("cannot write the holder's pid into {}", file.string()));
  }
}

std::filesystem::path board_lock::default_dir() { return "/run/lock/hilperf"; }

}  // namespace hil::sys
