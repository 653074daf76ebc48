// The iperf3 client state machine: runs one test against a stock `iperf3 -s` or a hilperf-peer.
//
//   connect (retry ECONNREFUSED) ─ cookie ─▶
//   ◀─ PARAM_EXCHANGE   ─ params JSON (with the authtoken when auth is set) ─▶
//   ◀─ CREATE_STREAMS   ─ streams 1,3,4,… (TCP: connect + cookie; UDP: 9876 → 6789) ─▶
//   ◀─ TEST_START, TEST_RUNNING   flows start; intervals every -i until -t (or -n/-k)
//   ─ TEST_END ─▶                 (-R: receivers keep draining)
//   ◀─ EXCHANGE_RESULTS ─ our results ─▶ ◀─ server results
//   ◀─ DISPLAY_RESULTS  ─ IPERF_DONE ─▶ close
//
//   on abort after connecting: CLIENT_TERMINATE, so a stock server never stays busy.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "hil/iperf3/params.hpp"
#include "hil/measure/results.hpp"
#include "hil/session/client_auth.hpp"

namespace hil::session {

struct client_options {
  std::string host;                                   // the server (-c)
  std::uint16_t port = 5201;                          // -p
  iperf3::test_params spec;                           // the test and iperf3's own flags
  std::optional<client_auth> auth;                    // credentials for a server that requires them
  std::chrono::milliseconds connect_timeout{10'000};  // per connect attempt
  std::chrono::milliseconds refused_retry{3'000};     // keep retrying ECONNREFUSED this long
  std::chrono::milliseconds busy_retry{1'000};        // and a "busy" answer (a finishing server)
  std::chrono::milliseconds control_timeout{30'000};  // any control read
  // Called as each stream connects (iperf3's "[  5] local … connected to …" line).
  std::function<void(const measure::stream_endpoint&)> on_connected;
  // Called at each interval boundary while the test runs.
  std::function<void(const measure::interval_sample&)> on_interval;
  // Set from a signal handler to abort; the server is then sent CLIENT_TERMINATE.
  const std::atomic<bool>* abort = nullptr;
};

// Runs one test. Throws std::system_error for anything that prevents a result, with the likely
// cause from the procedure's "Common Issues" (nothing listening, no answer, no route, busy).
measure::test_result run_client(const client_options& options);

}  // namespace hil::session
