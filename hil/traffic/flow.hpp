// One data stream of a test: a connected socket and the thread that moves its bytes.
//
//   control plane (one thread)            data plane (one thread per flow)
//   ───────────────────────────           ─────────────────────────────────
//   flow::start(role) ──────────────────▶ tcp_send | tcp_receive | udp_send | udp_receive
//   flow::sample() every interval ◀────── counters (atomics; UDP stats under a mutex)
//   flow::stop() ───── stop_token ──────▶ loop ends within io_timeout
//
// Hot loops use plain syscalls (send/recv, sendmmsg/recvmmsg) on the fd the control plane set up;
// blocking calls carry SO_SNDTIMEO/SO_RCVTIMEO so a stop request is seen within io_timeout.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

#include "hil/measure/pacing.hpp"
#include "hil/measure/results.hpp"
#include "hil/measure/test_spec.hpp"
#include "hil/measure/udp_stats.hpp"
#include "hil/sys/unique_fd.hpp"
#include "hil/traffic/data_framing.hpp"
#include "hil/traffic/socket_options.hpp"

namespace hil::traffic {

enum class flow_role { send, receive };

// A block of pseudo-random payload from seed (iperf3 fills its buffer once with random bytes):
// every block a sending flow writes.
[[nodiscard]] std::vector<std::uint8_t> random_block(std::size_t size, std::uint64_t seed);

// What one flow does.
struct flow_config {
  int id = 0;  // the protocol's stream id (iperf3: 1, 3, 4, …)
  flow_role role = flow_role::send;
  measure::protocol proto = measure::protocol::tcp;
  std::uint32_t block_len = 0;    // bytes per write (TCP) or per datagram (UDP payload)
  std::uint64_t bitrate_bps = 0;  // payload bits/s; 0 = as fast as possible
  std::uint64_t byte_limit = 0;   // sender stops after this many bytes (-n), 0 = none
  // -k, 0 = none: a sender stops after this many blocks; a UDP receiver counts only datagrams
  // numbered up to it (a stock iperf3 server sending -R -k goes on until TEST_END: what it sends
  // past the burst is not part of it).
  std::uint64_t block_limit = 0;
  // UDP: the protocol's datagram header (required for UDP flows, unused by TCP ones).
  std::shared_ptr<const datagram_format> datagrams;
  // Seeds the random payload: random_block(block_len, payload_seed) is every block this flow
  // sends, so a payload seen in a capture can be rebuilt (test_result::payload_seed).
  std::uint64_t payload_seed = 0;
};

// A consistent copy of a flow's counters.
struct flow_sample {
  std::uint64_t bytes = 0;             // payload bytes sent or received
  std::uint64_t packets = 0;           // UDP datagrams sent (sender) or received (receiver)
  measure::udp_snapshot udp;           // UDP receiver statistics
  std::optional<tcp_info_sample> tcp;  // TCP sender: TCP_INFO at sampling time
};

class flow {
 public:
  // Takes a connected data socket. Throws std::invalid_argument for a UDP flow without a
  // datagram format, std::system_error when the socket cannot be made blocking.
  flow(sys::unique_fd fd, int family, flow_config config);
  ~flow();  // stops and joins
  flow(const flow&) = delete;
  flow& operator=(const flow&) = delete;

  // Starts the worker thread. Senders begin sending at once; a paced one keeps its schedule from
  // schedule_start (the test's t0: a thread that starts late catches up, so the rate holds over
  // the whole test, as iperf3 counts it).
  void start(
      std::chrono::steady_clock::time_point schedule_start = std::chrono::steady_clock::now());
  // Asks the worker to stop; returns at once (join() waits).
  void request_stop() noexcept;
  // Waits for the worker.
  void join();
  // Restarts the UDP jitter estimate, as iperf3 does when the -O period ends.
  void restart_jitter();
  // Closes the data socket after join() (iperf3's server closes data sockets on TEST_END).
  void close() noexcept;

  // The counters now; safe to call from any thread while the worker runs.
  [[nodiscard]] flow_sample sample() const;
  // True once a sender reached its byte/block limit or a receiver saw the end of its stream.
  [[nodiscard]] bool finished() const noexcept { return finished_.load(); }
  // When the worker finished (a sender: just after its last datagram or block went out); nullopt
  // before finished().
  [[nodiscard]] std::optional<std::chrono::steady_clock::time_point> finished_at() const noexcept;
  // Bytes this host still holds for the data socket (SIOCOUTQ): for UDP, datagrams not yet
  // handed to the wire — in the socket, the qdisc or the driver's ring until its TX completion;
  // for TCP, bytes not yet acknowledged. 0 once all of it left, or when the socket is closed.
  [[nodiscard]] std::size_t unsent_bytes() const noexcept;
  // The I/O error that ended the worker early, if any (connection reset, EMSGSIZE, …).
  [[nodiscard]] std::error_code error() const;
  // A UDP receiver whose sender marks its end (datagram_format::end_marker): the count the
  // marker announced, once it arrived (the flow reads on until stopped); nullopt before.
  [[nodiscard]] std::optional<std::uint64_t> peer_sent() const noexcept;
  // How the data thread spent its run, from its first to its last system call; valid after
  // join(), nullopt before or where the kernel offers no schedstat.
  [[nodiscard]] std::optional<measure::data_thread_cpu> thread_cpu() const noexcept {
    return thread_cpu_;
  }
  // A paced UDP sender: the most datagrams it held overdue at once (due by the time it woke,
  // beyond the one due then, and not yet sent): 0 while it keeps its schedule. A sender that
  // fell behind catches up above its rate, a burst of at most this many datagrams beyond the
  // schedule's. 0 for any other flow.
  [[nodiscard]] std::uint64_t most_overdue() const noexcept {
    return most_overdue_.load(std::memory_order_relaxed);
  }

  [[nodiscard]] const flow_config& config() const noexcept { return config_; }
  [[nodiscard]] int fd() const noexcept { return fd_.get(); }
  [[nodiscard]] int family() const noexcept { return family_; }

  // How long a blocked send/recv may take before the worker re-checks its stop request.
  static constexpr int io_timeout_ms = 100;
  // A paced UDP sender sends at each wake-up the datagrams due by then (at most batch_limit back
  // to back: one on schedule, more when it woke late); up to this many datagrams/s it spins the
  // last moments so each leaves at its own instant, above it only sleeps.
  static constexpr double spin_up_to_per_second = 10'000;
  static constexpr std::size_t batch_limit = 64;

 private:
  void run(const std::stop_token& stop);
  void tcp_send(const std::stop_token& stop);
  void tcp_receive(const std::stop_token& stop);
  void udp_send(const std::stop_token& stop);
  void udp_send_unpaced(const std::stop_token& stop);
  void udp_send_paced(const std::stop_token& stop, const measure::pacer& pacer);
  void udp_receive(const std::stop_token& stop);
  // Counts a GRO message of total bytes in segments as one run when its headers prove it one GSO
  // send of consecutive datagrams; false when it must be counted datagram by datagram.
  bool account_run(const std::uint8_t* data, std::size_t total, std::size_t segment,
                   std::chrono::nanoseconds arrived);
  // Records the first error that ends the worker.
  void fail(int err);
  // How many more datagrams (at most most) a UDP sender that has sent `sent` may send under its
  // -n/-k limits; 0 when it is done.
  [[nodiscard]] std::uint64_t datagrams_within_limits(std::uint64_t sent, std::uint64_t most) const;
  // True while a sender may send another block of n bytes under its -n/-k limits.
  [[nodiscard]] bool within_limits(std::uint64_t n) const;
  // Stamps finished_at() and sets finished().
  void mark_finished() noexcept;

  sys::unique_fd fd_;  // the connected data socket
  int family_;         // AF_INET or AF_INET6
  flow_config config_;
  std::atomic<std::uint64_t> bytes_{0};    // payload bytes moved
  std::atomic<std::uint64_t> packets_{0};  // datagrams moved (UDP) / blocks (TCP sender)
  std::atomic<bool> finished_{false};
  std::atomic<std::chrono::steady_clock::rep> finished_at_{0};  // steady_clock ticks
  std::atomic<std::uint64_t> most_overdue_{0};                  // see most_overdue()
  std::atomic<std::uint64_t> peer_sent_{0};  // end_marker's count + 1; 0 = not seen
  std::atomic<int> error_{0};                // errno of the failure that ended the worker
  mutable std::mutex udp_mutex_;             // guards udp_stats_
  measure::udp_receiver_stats udp_stats_;    // UDP receiver statistics
  std::chrono::steady_clock::time_point schedule_start_;  // of a paced sender, from start()
  std::optional<measure::data_thread_cpu> thread_cpu_;    // written by the worker as it ends
  std::jthread worker_;                                   // the data thread
};

}  // namespace hil::traffic
