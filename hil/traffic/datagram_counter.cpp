#include "hil/traffic/datagram_counter.hpp"

#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <vector>

namespace hil::traffic {
namespace {

constexpr std::size_t batch = 64;
constexpr std::size_t max_datagram = 65536;
constexpr int receive_buffer = 8 << 20;  // asked for; the kernel caps it at rmem_max unless forced

}  // namespace

datagram_counter::datagram_counter(const socket_address& local, const socket_address& client)
    : client_(client),
      udp_(open_bound(local, SOCK_DGRAM, stop_poll)),
      port_(local_port(udp_.get())) {
  // As large as we may: a burst of small frames must wait in the buffer, not be dropped before it.
  if (::setsockopt(udp_.get(), SOL_SOCKET, SO_RCVBUFFORCE, &receive_buffer,
                   sizeof(receive_buffer)) != 0) {
    ::setsockopt(udp_.get(), SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof(receive_buffer));
  }
}

datagram_counter::~datagram_counter() { stop(); }

void datagram_counter::start() {
  thread_ = std::jthread([this](const std::stop_token& st) { count_loop(st); });
}

void datagram_counter::stop() noexcept {
  thread_.request_stop();
  if (thread_.joinable()) thread_.join();
}

std::size_t datagram_counter::read_batch(int flags) {
  static thread_local std::vector<std::uint8_t> buffers(batch * max_datagram);
  std::array<mmsghdr, batch> msgs{};
  std::array<iovec, batch> iov{};
  std::array<sockaddr_storage, batch> from{};
  for (std::size_t i = 0; i < batch; ++i) {
    iov[i] = {buffers.data() + i * max_datagram, max_datagram};
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
    msgs[i].msg_hdr.msg_name = &from[i];
    msgs[i].msg_hdr.msg_namelen = sizeof(from[i]);
  }
  const int n = ::recvmmsg(udp_.get(), msgs.data(), batch, flags, nullptr);
  if (n <= 0) return 0;
  for (int i = 0; i < n; ++i) {
    if (same_host(from[i], client_)) {
      datagrams_.fetch_add(1, std::memory_order_relaxed);
      bytes_.fetch_add(msgs[i].msg_len, std::memory_order_relaxed);
    } else {
      turned_away_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  return static_cast<std::size_t>(n);
}

void datagram_counter::count_loop(const std::stop_token& st) {
  // MSG_WAITFORONE: waits (up to the socket's receive timeout, stop_poll) for the first
  // datagram, then takes what else is queued.
  while (!st.stop_requested()) (void)read_batch(MSG_WAITFORONE);
  while (read_batch(MSG_DONTWAIT) > 0) {
  }
}

}  // namespace hil::traffic
