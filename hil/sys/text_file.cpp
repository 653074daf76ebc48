#include "hil/sys/text_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/sys/unique_fd.hpp"

namespace hil::sys {

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
  const unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) throw_last_errno(fmt::format("cannot open {}", path));
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_last_errno(fmt::format("cannot read {}", path));
    if (n == 0) return out;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) {
      throw std::system_error(
          std::make_error_code(std::errc::file_too_large),
          fmt::format("{} holds more than {} bytes: is it the right file?", path, max_bytes));
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace hil::sys
