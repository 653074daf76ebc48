// A UDP sender's batch: consecutive datagrams of one length in one buffer, handed to sendmmsg(2)
// as messages of one datagram each or, with UDP GSO (UDP_SEGMENT), of up to per_message
// datagrams each that the kernel (or the NIC) cuts apart again. Either way the datagrams of one
// sendmmsg leave back to back; GSO only spares the per-datagram walk through the stack, so a paced
// sender that batches keeps the same schedule and the same bursts with it as without.
//
// The buffer is the caller's (headers are written into it in place); the batch only lays the
// messages over it and counts what a partial send carried. Not thread-safe: one sender's.
#pragma once

#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hil::traffic {

// Turns UDP GSO on for a connected socket sending datagrams of len payload bytes when it can
// carry them: two or more fit one 65,000-byte send, the datagram fits the path MTU (GSO cannot
// cut IP fragments: the kernel refuses a segment beyond the MTU with EMSGSIZE) and the kernel
// takes UDP_SEGMENT. Returns the datagrams per message to use (at most 64, the kernel's limit),
// 1 when GSO is off.
[[nodiscard]] std::size_t enable_udp_gso(int fd, int family, std::size_t len);

class datagram_batch {
 public:
  // Messages over buf (at least per_message · messages datagrams of len bytes).
  datagram_batch(std::uint8_t* buf, std::size_t len, std::size_t per_message, std::size_t messages);

  // The most datagrams one send carries.
  [[nodiscard]] std::size_t capacity() const noexcept { return per_message_ * msgs_.size(); }

  // Lays the first n datagrams (n ≤ capacity()) over as few messages as they need; returns the
  // message count for sendmmsg.
  [[nodiscard]] std::size_t lay_out(std::size_t n);

  [[nodiscard]] mmsghdr* messages() noexcept { return msgs_.data(); }

  // The datagrams the first `sent` messages of the last lay_out carried (sendmmsg's result).
  [[nodiscard]] std::uint64_t datagrams_in(int sent) const noexcept;

 private:
  std::uint8_t* buf_;
  std::size_t len_;
  std::size_t per_message_;
  std::vector<iovec> iov_;
  std::vector<mmsghdr> msgs_;
};

}  // namespace hil::traffic
