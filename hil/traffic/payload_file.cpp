#include "hil/traffic/payload_file.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include <cerrno>

namespace hil::traffic {

std::optional<payload_file> payload_file::of(std::span<const std::uint8_t> block) {
  sys::unique_fd fd(::memfd_create("hilperf-payload", MFD_CLOEXEC));
  if (!fd) return std::nullopt;
  std::size_t done = 0;
  while (done < block.size()) {
    const ssize_t n = ::write(fd.get(), block.data() + done, block.size() - done);
    if (n <= 0) return std::nullopt;
    done += static_cast<std::size_t>(n);
  }
  return payload_file(std::move(fd));
}

ssize_t payload_file::send_to(int sock, std::size_t n) const {
  off_t offset = 0;  // every write starts at the block's first byte, as send(2) of it does
  const ssize_t sent = ::sendfile(sock, fd_.get(), &offset, n);
  if (sent < 0 && errno == EPIPE) {
    const int err = errno;
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    const timespec now{0, 0};
    while (::sigtimedwait(&pipe, nullptr, &now) == SIGPIPE) {
    }
    errno = err;
  }
  return sent;
}

void payload_file::block_sigpipe() noexcept {
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
}

}  // namespace hil::traffic
