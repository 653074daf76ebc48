// hilperf: the client, with iperf3's flags. A thin main over hil::session::run_client
// (docs/code-style.md rule 1): options.hpp declares and checks the command line; --workload runs
// netperf's request/response tests against a hilperf-peer (workload_mode.hpp). Works against a
// stock `iperf3 -s` and against hilperf-peer.
// Exit codes: 0 done, 1 the test failed or could not run, 2 bad usage, 3 --workload against a peer
// without the hilperf extension.
#include <signal.h>

#include <atomic>
#include <iostream>
#include <system_error>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "hil/report/iperf3_json.hpp"
#include "hil/report/iperf3_text.hpp"
#include "hil/session/iperf2_client.hpp"
#include "hil/session/iperf3_client.hpp"
#include "hil/sys/printable.hpp"
#include "options.hpp"
#include "workload_mode.hpp"

namespace {

std::atomic<bool> interrupted{false};  // set by SIGINT/SIGTERM; the client sends CLIENT_TERMINATE

extern "C" void on_signal(int /*sig*/) { interrupted = true; }

void print_json(const hil::measure::test_result& r) {
  std::cout << hil::report::to_iperf3_json(r, HIL_VERSION, hil::report::local_system_info()).dump(2)
            << '\n';
}

// One test against an iperf3 server (or an iperf 2 one), printed as iperf3 prints it (or as -J
// JSON, iperf3's structure whichever protocol ran). Returns the exit code.
int run_iperf3(hil::session::client_options o, bool json, bool iperf2) {
  o.abort = &interrupted;
  ::signal(SIGINT, on_signal);
  ::signal(SIGTERM, on_signal);
  hil::report::live_printer live(std::cout, o.spec);  // as iperf3 prints while it runs
  if (!json) {
    std::cout << fmt::format("Connecting to host {}, port {}\n", o.host, o.port) << std::flush;
    o.on_connected = [&](const hil::measure::stream_endpoint& e) { live.connected(e); };
    o.on_interval = [&](const hil::measure::interval_sample& s) { live.interval(s); };
  }
  hil::measure::test_result r;
  try {
    r = iperf2 ? hil::session::run_iperf2_client(o) : hil::session::run_client(o);
  } catch (const std::exception& e) {
    if (!json) {
      // The text may quote a server's words: printed on one line, controls escaped.
      std::cerr << "hilperf: error - " << hil::sys::printable(e.what()) << '\n';
      return 1;
    }
    r.spec = o.spec;
    r.error = e.what();
    print_json(r);
    return 1;
  }
  if (json) {
    print_json(r);
  } else {
    std::cout << hil::report::format_summary(r) << hil::report::format_server_output_section(r)
              << "\nhilperf Done.\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(
      "hilperf: iperf3-compatible client (works against stock iperf3 -s and hilperf-peer)");
  app.set_version_flag("--version", "hilperf " HIL_VERSION " (iperf3 3.12 compatible)");
  hilperf::raw_options raw;
  hilperf::declare(app, raw);
  CLI11_PARSE(app, argc, argv);
  if (const auto problems = hilperf::problems(raw); !problems.empty()) {
    for (const auto& p : problems) std::cerr << "hilperf: " << p << '\n';
    std::cerr << "Run with --help for more information.\n";
    return 2;
  }
  hilperf::run_request request;
  try {
    request = hilperf::to_request(raw);
  } catch (const std::system_error& e) {
    std::cerr << "hilperf: " << e.what() << '\n';
    return 2;
  }
  if (request.workload) return run_workload_mode(*request.workload, request.json);
  return run_iperf3(request.client, request.json, request.iperf2);
}
