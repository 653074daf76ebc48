// Zero-copy TCP transmit: a sending flow's block held in an anonymous in-memory file (memfd) and
// handed to the socket with sendfile(2), so the kernel lends TCP the file's pages instead of
// copying the bytes out of a user buffer on every write (iperf3's -Z does the same from a
// temporary file on disk). The bytes on the wire are those of the block, unchanged; the file is
// never written again once made, so a page still in flight cannot change under TCP.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <span>

#include "hil/sys/unique_fd.hpp"

namespace hil::traffic {

class payload_file {
 public:
  // The block in a memfd; nullopt when the kernel offers no memfd (then send(2) as before).
  [[nodiscard]] static std::optional<payload_file> of(std::span<const std::uint8_t> block);

  // Sends the first n bytes of the block (n ≤ its size) on the connected TCP socket sock, as
  // send(2) with MSG_NOSIGNAL would: the bytes sent, or -1 with errno (EAGAIN after the socket's
  // send timeout, EPIPE once the connection is gone). sendfile(2) has no MSG_NOSIGNAL: the
  // calling thread must block SIGPIPE (block_sigpipe()), and the SIGPIPE an EPIPE raises is taken
  // off the thread here, so it is never delivered.
  [[nodiscard]] ssize_t send_to(int sock, std::size_t n) const;

  // Blocks SIGPIPE in the calling thread (a data thread of its own) for the rest of its life.
  static void block_sigpipe() noexcept;

 private:
  explicit payload_file(sys::unique_fd fd) : fd_(std::move(fd)) {}
  sys::unique_fd fd_;
};

}  // namespace hil::traffic
