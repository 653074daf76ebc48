#include "hil/traffic/datagram_batch.hpp"

#include <netinet/in.h>
#include <netinet/udp.h>

#include <algorithm>

namespace hil::traffic {

namespace {

constexpr std::size_t largest_send = 65'000;
constexpr std::size_t most_segments = 64;  // the kernel's UDP_MAX_SEGMENTS

// Whether a UDP datagram of len payload bytes fits the connected socket's path MTU unfragmented;
// false when the MTU cannot be read.
bool fits_path_mtu(int fd, int family, std::size_t len) {
  int mtu = 0;
  socklen_t size = sizeof(mtu);
  const bool v6 = family == AF_INET6;
  if (::getsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_MTU : IP_MTU, &mtu, &size) != 0) {
    return false;
  }
  const std::size_t headers = (v6 ? 40 : 20) + 8;
  return mtu > 0 && len + headers <= static_cast<std::size_t>(mtu);
}

}  // namespace

std::size_t enable_udp_gso(int fd, int family, std::size_t len) {
  const int segment = static_cast<int>(len);
  const bool on = len > 0 && len * 2 <= largest_send && fits_path_mtu(fd, family, len) &&
                  ::setsockopt(fd, SOL_UDP, UDP_SEGMENT, &segment, sizeof(segment)) == 0;
  return on ? std::min(most_segments, largest_send / len) : 1;
}

datagram_batch::datagram_batch(std::uint8_t* buf, std::size_t len, std::size_t per_message,
                               std::size_t messages)
    : buf_(buf), len_(len), per_message_(per_message), iov_(messages), msgs_(messages) {}

std::size_t datagram_batch::lay_out(std::size_t n) {
  const std::size_t used = (n + per_message_ - 1) / per_message_;
  for (std::size_t m = 0; m < used; ++m) {
    const std::size_t count = std::min(per_message_, n - m * per_message_);
    iov_[m] = {buf_ + m * per_message_ * len_, count * len_};
    msgs_[m] = {};
    msgs_[m].msg_hdr.msg_iov = &iov_[m];
    msgs_[m].msg_hdr.msg_iovlen = 1;
  }
  return used;
}

std::uint64_t datagram_batch::datagrams_in(int sent) const noexcept {
  std::uint64_t datagrams = 0;
  for (int m = 0; m < sent; ++m) datagrams += iov_[static_cast<std::size_t>(m)].iov_len / len_;
  return datagrams;
}

}  // namespace hil::traffic
