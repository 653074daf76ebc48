// hilperf's command line: iperf3's client flags plus --workload, declared once (declare), checked
// as a whole in one pass that lists every problem (problems), and turned into what the run does
// (to_request). CLI11 checks each option on its own (a number, a range, a member of a set); the
// pass checks what only the combination shows (-n with -k, --dont-fragment without -u, …).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hil/session/iperf3_client.hpp"
#include "hil/session/workload_client.hpp"

namespace hilperf {

// The options as given, before they are combined.
struct raw_options {
  hil::session::client_options client;  // host, port and the flags that fill spec directly
  std::string bitrate, length, window, bytes, blocks;  // iperf3-style numbers ("100M", "128K")
  double interval_s = 1, time_s = 10, omit_s = 0, connect_timeout_s = 10;
  bool udp = false, json = false;
  std::string workload;  // TCP_RR, TCP_CRR or UDP_RR; empty for an iperf3 test
  std::vector<std::uint32_t> rr_sizes{1, 1};
  int load_streams = 0;
  int response_timeout_ms = 1000;
  std::string username, rsa_public_key_path;  // iperf3's authentication (password: IPERF3_PASSWORD)
  bool use_pkcs1_padding = false;
  std::optional<std::uint16_t> port;  // -p; unset: the protocol's default (5201, iperf 2: 5001)
  std::string protocol = "iperf3";    // --protocol: iperf3 or iperf2
};

// What one run does.
struct run_request {
  hil::session::client_options client;                     // the iperf3 test, without workload
  std::optional<hil::session::workload_options> workload;  // --workload
  bool iperf2 = false;                                     // --protocol iperf2
  bool json = false;                                       // -J
};

// Declares every option on app, filling raw when app parses.
void declare(CLI::App& app, raw_options& raw);

// Every problem of the combination given, one line each naming the flags; empty when none.
[[nodiscard]] std::vector<std::string> problems(const raw_options& raw);

// The run raw asks for; raw must have no problems. Throws std::system_error when the
// authentication's key or password cannot be had (hil/session/client_auth.hpp).
[[nodiscard]] run_request to_request(const raw_options& raw);

}  // namespace hilperf
