// The peer's count of a trial's datagrams on a UDP socket (the hilperf extension's FRAME_COUNT
// when it cannot count in XDP, docs/hilperf-extension.md §11): one socket bound to the address
// the client reached (a fixed port, or an ephemeral one), read by a thread of its own in batches
// (recvmmsg) until stop(). Datagrams from the client's host are counted, others only tallied
// as turned away. What the kernel dropped before the socket (a full receive buffer) is not seen:
// that is the limit of counting on a socket, which the XDP counter does not have.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "hil/sys/unique_fd.hpp"
#include "hil/traffic/rr_io.hpp"

namespace hil::traffic {

class datagram_counter {
 public:
  // Binds a UDP socket to local (its port, or an ephemeral one when 0) with a large receive
  // buffer; client is the host whose datagrams count. Throws std::system_error naming the
  // address.
  datagram_counter(const socket_address& local, const socket_address& client);
  ~datagram_counter();  // stop()
  datagram_counter(const datagram_counter&) = delete;
  datagram_counter& operator=(const datagram_counter&) = delete;

  [[nodiscard]] std::uint16_t udp_port() const noexcept { return port_; }

  // Starts counting on a thread of its own.
  void start();
  // Stops the thread (within stop_poll) after reading what is queued; idempotent, never throws.
  void stop() noexcept;

  // Datagrams from the client's host, and their payload bytes, so far.
  [[nodiscard]] std::uint64_t datagrams() const noexcept { return datagrams_.load(); }
  [[nodiscard]] std::uint64_t payload_bytes() const noexcept { return bytes_.load(); }
  // Datagrams from any other host.
  [[nodiscard]] std::uint64_t turned_away() const noexcept { return turned_away_.load(); }

  static constexpr std::chrono::milliseconds stop_poll{200};

 private:
  void count_loop(const std::stop_token& st);
  // Reads what is queued once (no wait); the number of datagrams read.
  std::size_t read_batch(int flags);

  socket_address client_;
  sys::unique_fd udp_;
  std::uint16_t port_ = 0;
  std::atomic<std::uint64_t> datagrams_{0};
  std::atomic<std::uint64_t> bytes_{0};
  std::atomic<std::uint64_t> turned_away_{0};
  std::jthread thread_;
};

}  // namespace hil::traffic
