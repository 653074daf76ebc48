// The iperf3 server side (hilperf-peer): accepts stock iperf3 clients and ours, one test at a time.
//
//   idle ── control connection ──▶ cookie ─ PARAM_EXCHANGE ─ params ─ CREATE_STREAMS
//     ▲                             (with auth: a refused authtoken gets SERVER_ERROR 142, close)
//     ▲                             streams arrive on the same port (TCP: cookie; UDP: 9876/6789)
//     │                            TEST_START, TEST_RUNNING ─ intervals ─ ◀ TEST_END
//     │                            close data sockets ─ EXCHANGE_RESULTS ◀ client results
//     │                            server results ▶ DISPLAY_RESULTS ◀ IPERF_DONE | EOF
//     └──────── always back to idle: CLIENT_TERMINATE, a vanished client, garbage, guard timer
//
//   other control connections while busy: one byte 0xFF (ACCESS_DENIED), then close; during
//   stream creation each connection's cookie is read on its own, and only this test's makes it
//   a stream. The control connection is watched in every phase: a client that closes it or sends
//   CLIENT_TERMINATE frees the server at once. No phase outlives its one deadline, and no test
//   (timed or not) runs longer than iperf3's MAX_TIME, 86400 s, plus omit and the guard.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "hil/iperf3/auth.hpp"
#include "hil/measure/results.hpp"
#include "hil/session/frame_count_hook.hpp"

namespace hil::session {

namespace detail {
struct server_impl;
}

// iperf3's RSA authentication (iperf3/auth.hpp), as iperf3 -s --rsa-private-key-path
// --authorized-users-path --time-skew-threshold --use-pkcs1-padding: every test, the extension's
// too, must carry a token of a listed user. The users file is read at every test, as iperf3 does.
struct server_auth {
  iperf3::rsa_key private_key;
  std::string users_path;
  std::chrono::seconds skew_threshold{10};
  bool accept_pkcs1 = false;  // also PKCS#1 v1.5 tokens (iperf3 clients before 3.17)
};

struct server_options {
  std::string bind_address;     // -B; empty = every address (IPv4 and IPv6)
  std::uint16_t port = 5201;    // -p; 0 picks a free port (tests)
  std::uint16_t data_port = 0;  // hilperf extension data (TCP and UDP); 0 = a free one per test
  bool one_off = false;         // -1: serve one test, then stop
  std::chrono::seconds idle_timeout{0};  // --idle-timeout: stop when no client comes for this long
  std::chrono::milliseconds control_timeout{30'000};  // any control read inside a test
  std::optional<server_auth> auth;       // unset: any client may test, as a stock iperf3 -s
  std::chrono::seconds guard_slack{40};  // a test may run time + omit + slack before it is cut off
  // An untimed test (-n, -k) ends when no data moved for this long (iperf3's --rcv-timeout).
  std::chrono::milliseconds rcv_timeout{120'000};
  // Caps, as iperf3 -s has them (0: none). A test asking for more is refused with iperf3's error
  // code, so a stock client prints iperf3's words for it (docs/hardening.md).
  //   --server-max-duration: time + omit, in seconds; an untimed test (-n, -k) is refused too
  //   (IEMAXSERVERTESTDURATIONEXCEEDED, 37).
  std::chrono::seconds max_duration{0};
  //   --server-bitrate-limit RATE[/SECS]: bit/s of all streams, both ways; refused up front when
  //   -P × -b (× 2 both ways) exceeds it, and ended (IETOTALRATE, 27) once an average over
  //   bitrate_window exceeds it while the test runs.
  std::uint64_t bitrate_limit = 0;
  std::chrono::seconds bitrate_window{5};
  //   --max-streams: data streams of one test, both directions together (IENUMSTREAMS, 6).
  int max_streams = 128;
  std::function<void(const std::string&)> log;  // one line per test and per rejected connection
  std::function<void(const measure::test_result&)> on_result;  // each finished test
  // The server's own output of a test, sent back to a client that asked --get-server-output;
  // unset, such a client gets none (as from a stock server that prints nothing).
  std::function<std::string(const measure::test_result&)> server_output;
  // Counts a FRAME_COUNT request's frames below the socket layer (hilperf-peer: in XDP); unset,
  // or when it throws, the server counts them on its UDP socket and says why in its accept.
  frame_count_attach xdp_counter;
};

class server {
 public:
  // Binds the listening port now; throws std::system_error naming the process that holds it.
  explicit server(server_options options);
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  // The port actually listened on.
  [[nodiscard]] std::uint16_t port() const;
  // Serves until stop(), the one-off test ends, or the idle timeout passes. Returns the number of
  // tests that completed.
  int run();
  // Thread-safe: makes run() return soon, aborting a running test.
  void stop();

 private:
  std::unique_ptr<detail::server_impl> impl_;  // io_context, listener, the current test
};

}  // namespace hil::session
