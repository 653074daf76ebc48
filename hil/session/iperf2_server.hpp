// The iperf 2 server: serves stock `iperf -c` clients (2.1.8 and older) on one port, TCP and UDP
// at once, as `iperf -s` and `iperf -s -u` together would (docs/iperf2-protocol.md). Used by
// hilperf-peer (its iperf 2 port) and by the seed 002 Rx cases (the DUT as server).
//
//   TCP   accept ─ header (flags, length: iperf2/wire) ─ ack when the client wants one ─ count to
//         EOF (the engine's stream_receiver, per second, read as the event loop sees data) ─
//         close ─ one result
//   UDP   datagrams per client address ─ statistics (iperf 2's: loss, out-of-order, jitter) ─
//         FIN ─ report (sent again, up to 9 times, while FINs keep coming) ─ one result
//
//   -R, --full-duplex  the client's connection (TCP) or a socket of its own on this port connected
//         to it (UDP) carries our stream back, on the engine's threads (iperf2_turnaround)
//
//   bounded: a TCP stream ends at EOF or its header's duration + guard_slack (a turned-round test
//   too); a UDP client that goes quiet for udp_idle without a FIN is ended without a report; at
//   most max_udp_clients UDP clients at once (the oldest is dropped); -d/-r (the server
//   connecting back to the client) are refused by closing at once, so a stock client ends
//   instead of waiting.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "hil/measure/results.hpp"

namespace hil::session {

namespace detail {
struct iperf2_server_impl;
}

struct iperf2_server_options {
  std::string bind_address;   // empty = every address (IPv4 and IPv6)
  std::uint16_t port = 5001;  // 0 picks a free port (tests); the same number for TCP and UDP
  bool one_off = false;       // serve one test (one stream), then stop
  std::chrono::seconds guard_slack{20};  // beyond a stream's own duration
  std::chrono::seconds udp_idle{10};     // a UDP client silent this long has gone
  std::size_t max_udp_clients = 64;
  std::size_t max_turned_tests = 16;  // -R/--full-duplex at once (threads each); more are refused
  std::function<void(const std::string&)> log;                 // one line per stream
  std::function<void(const measure::test_result&)> on_result;  // each finished stream
};

class iperf2_server {
 public:
  // Binds TCP and UDP now; throws std::system_error naming the process that holds the port.
  explicit iperf2_server(iperf2_server_options options);
  ~iperf2_server();
  iperf2_server(const iperf2_server&) = delete;
  iperf2_server& operator=(const iperf2_server&) = delete;

  [[nodiscard]] std::uint16_t port() const;
  // Serves until stop() or the one-off stream ends; returns the number of streams served.
  int run();
  // Thread-safe: makes run() return soon.
  void stop();

 private:
  std::unique_ptr<detail::iperf2_server_impl> impl_;
};

}  // namespace hil::session
