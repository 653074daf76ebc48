// The peer side of the request/response data plane (the hilperf extension's,
// docs/hilperf-extension.md §5–§6): a TCP listener and a UDP socket (ephemeral ports, or a fixed
// one) that answer requests, close TCP_CRR connections and sink or source RRUL load, until stop().
// What each TCP connection is for, its first bytes say (the protocol's connection_hello, which
// carries the test's token); only the test's client host is served:
//
//   accept thread ── another host, a wrong hello, more than the test needs: closed at once
//     (polls the listener and up to 64 connections whose hello is due, each within 5 s)
//                 ── hello ──▶ rr thread:  read request, write response, until EOF
//                              crr inline: read request, write response, close (we close first,
//                                          so TIME_WAIT stays here, not on the client's ports)
//                              sink thread: read and discard    source thread: write until closed
//   udp thread: each datagram from the client host that starts with the datagram prefix
//               answered with response_size bytes (its tag echoed); any other dropped
//
// Threads are bounded by the test: one per TCP_RR connection and per RRUL load connection (1 + 2 ×
// load_streams at once), each with at most request + response (≤ 2 MiB) or one 128 KiB load
// block; finished ones are joined as new ones come. Every blocking call carries a short timeout
// so stop() is seen within stop_poll.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "hil/measure/cpu_meter.hpp"
#include "hil/measure/workload.hpp"
#include "hil/sys/unique_fd.hpp"
#include "hil/traffic/data_framing.hpp"
#include "hil/traffic/rr_io.hpp"

namespace hil::traffic {

class rr_responder {
 public:
  // Opens the listeners on local: TCP and UDP on its port, or on ephemeral ports when it is 0;
  // hello reads what each TCP connection is for; client is the only host served (its port is
  // ignored). Throws std::system_error naming the address.
  rr_responder(const socket_address& local, const measure::rr_spec& spec,
               std::shared_ptr<const connection_hello> hello, const socket_address& client);
  ~rr_responder();  // stop()
  rr_responder(const rr_responder&) = delete;
  rr_responder& operator=(const rr_responder&) = delete;

  [[nodiscard]] std::uint16_t tcp_port() const noexcept { return tcp_port_; }
  [[nodiscard]] std::uint16_t udp_port() const noexcept { return udp_port_; }

  // Starts answering.
  void start();
  // Stops every thread and closes every connection; idempotent, never throws.
  void stop() noexcept;

  // Responses sent so far (TCP_RR, TCP_CRR and UDP_RR together).
  [[nodiscard]] std::uint64_t transactions() const noexcept { return transactions_.load(); }
  // Connections and datagrams not served: from another host, without the hello or prefix, or
  // connections beyond what the test needs.
  [[nodiscard]] std::uint64_t turned_away() const noexcept { return turned_away_.load(); }
  // CPU use of this process since start().
  [[nodiscard]] measure::cpu_usage cpu() const;

  static constexpr std::chrono::milliseconds stop_poll{200};

 private:
  void accept_loop(const std::stop_token& st);
  // A connection whose hello (hello_->size() bytes) has arrived: TCP_CRR answered here, the
  // others on a thread of their own.
  void serve(sys::unique_fd fd, const std::vector<std::uint8_t>& hello);
  // Starts body on a thread of its own, unless the test's threads are all in use (false).
  bool spawn(std::function<void(const std::stop_token&)> body);
  void answer_rr(int fd, const std::stop_token& st);
  void answer_crr(int fd);
  void sink(int fd, const std::stop_token& st);
  void source(int fd, const std::stop_token& st);
  void udp_loop(const std::stop_token& st);

  // A connection's thread; done once its body returned (then it is joined at the next spawn).
  struct worker {
    std::shared_ptr<std::atomic<bool>> done;
    std::jthread thread;
  };

  measure::rr_spec spec_;
  std::shared_ptr<const connection_hello> hello_;  // the protocol's data connection hello
  std::vector<std::uint8_t> prefix_;               // of every UDP_RR request
  socket_address client_;                          // the only host served
  std::size_t max_workers_;                        // 1 + 2 × load_streams
  sys::unique_fd listener_;                        // TCP, ephemeral port
  sys::unique_fd udp_;                             // UDP, ephemeral port
  std::uint16_t tcp_port_ = 0;
  std::uint16_t udp_port_ = 0;
  std::atomic<std::uint64_t> transactions_{0};
  std::atomic<std::uint64_t> turned_away_{0};
  std::optional<measure::cpu_meter> cpu_;  // from start()
  std::mutex mutex_;                       // guards workers_
  std::vector<worker> workers_;            // one per R/S/D connection
  std::jthread acceptor_;
  std::jthread udp_thread_;
};

}  // namespace hil::traffic
