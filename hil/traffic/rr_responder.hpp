// The peer side of the request/response data plane (the hilperf extension's,
// docs/hilperf-extension.md §5–§6): a TCP listener and a UDP socket (ephemeral ports, or a fixed
// one) that answer requests, close TCP_CRR connections and sink or source RRUL load, until stop().
// What each TCP connection is for, its first bytes say (the protocol's connection_hello):
//
//   accept thread ── hello ──▶ rr thread:  read request, write response, until EOF
//                              crr inline: read request, write response, close (we close first,
//                                          so TIME_WAIT stays here, not on the client's ports)
//                              sink thread: read and discard    source thread: write until closed
//   udp thread: each datagram answered with response_size bytes (its tag echoed)
//
// Every blocking call carries a short timeout so stop() is seen within stop_poll.
#pragma once

#include <atomic>
#include <chrono>
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
  // hello reads what each TCP connection is for. Throws std::system_error naming the address.
  rr_responder(const socket_address& local, const measure::rr_spec& spec,
               std::shared_ptr<const connection_hello> hello);
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
  // CPU use of this process since start().
  [[nodiscard]] measure::cpu_usage cpu() const;

  static constexpr std::chrono::milliseconds stop_poll{200};

 private:
  void accept_loop(const std::stop_token& st);
  void serve(sys::unique_fd fd);
  void answer_rr(int fd, std::size_t have, const std::stop_token& st);
  void answer_crr(int fd, std::span<char> request, std::size_t have);
  void sink(int fd, const std::stop_token& st);
  void source(int fd, const std::stop_token& st);
  void udp_loop(const std::stop_token& st);

  measure::rr_spec spec_;
  std::shared_ptr<const connection_hello> hello_;  // the protocol's data connection hello
  sys::unique_fd listener_;                        // TCP, ephemeral port
  sys::unique_fd udp_;                             // UDP, ephemeral port
  std::uint16_t tcp_port_ = 0;
  std::uint16_t udp_port_ = 0;
  std::atomic<std::uint64_t> transactions_{0};
  std::optional<measure::cpu_meter> cpu_;  // from start()
  std::mutex mutex_;                       // guards connections_
  std::vector<std::jthread> connections_;  // one per R/S/D connection
  std::jthread acceptor_;
  std::jthread udp_thread_;
};

}  // namespace hil::traffic
