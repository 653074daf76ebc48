// hilperf: the client, with iperf3's flags. A thin main over hil::iperf3::run_client
// (docs/code-style.md rule 1). Works against a stock `iperf3 -s` and against hilperf-peer;
// --workload runs netperf's request/response tests against a hilperf-peer (workload_mode.hpp).
// Exit codes: 0 done, 1 the test failed or could not run, 2 bad usage, 3 --workload against a peer
// without the hilperf extension.
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <iostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "hil/iperf3/client.hpp"
#include "hil/measure/units.hpp"
#include "hil/report/iperf3_json.hpp"
#include "hil/report/iperf3_text.hpp"
#include "workload_mode.hpp"

namespace {

std::atomic<bool> interrupted{false};  // set by SIGINT/SIGTERM; the client sends CLIENT_TERMINATE

extern "C" void on_signal(int /*sig*/) { interrupted = true; }

// A CLI11 validator for iperf3-style numbers ("100M", "128K").
CLI::Validator number_with_suffix(bool rate) {
  return CLI::Validator(
      [rate](const std::string& s) {
        const auto v = rate ? hil::measure::parse_rate(s) : hil::measure::parse_size(s);
        return v ? std::string() : "not a number with an optional K/M/G suffix: " + s;
      },
      rate ? "RATE" : "SIZE");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(
      "hilperf: iperf3-compatible client (works against stock iperf3 -s and hilperf-peer)");
  app.set_version_flag("--version", "hilperf " HIL_VERSION " (iperf3 3.12 compatible)");
  hil::iperf3::client_options o;
  auto& spec = o.spec;
  std::string bitrate, length, window, bytes, blocks;
  double interval_s = 1, time_s = 10, omit_s = 0, connect_timeout_s = 10;
  bool udp = false, json = false;
  app.add_option("-c,--client", o.host, "server to connect to")->required();
  app.add_option("-p,--port", o.port, "server port")->capture_default_str();
  app.add_flag("-u,--udp", udp, "use UDP");
  app.add_option("-b,--bitrate", bitrate, "target bitrate per stream, bits/s (K/M/G decimal)")
      ->check(number_with_suffix(true));
  app.add_option("-l,--length", length, "bytes per write / UDP payload (K/M binary)")
      ->check(number_with_suffix(false));
  app.add_option("-t,--time", time_s, "seconds to transmit")->capture_default_str();
  app.add_option("-n,--bytes", bytes, "bytes to transmit instead of -t")
      ->check(number_with_suffix(false));
  app.add_option("-k,--blockcount", blocks, "blocks to transmit instead of -t")
      ->check(number_with_suffix(false));
  app.add_option("-O,--omit", omit_s, "seconds to omit at the start");
  app.add_option("-i,--interval", interval_s, "seconds between reports (0 = none)")
      ->capture_default_str();
  app.add_option("-P,--parallel", spec.parallel, "parallel streams")->check(CLI::Range(1, 128));
  auto* reverse = app.add_flag("-R,--reverse", spec.reverse, "the server sends");
  app.add_flag("--bidir", spec.bidirectional, "both ends send")->excludes(reverse);
  app.add_option("-w,--window", window, "socket buffer size")->check(number_with_suffix(false));
  app.add_option("-M,--set-mss", spec.mss, "TCP maximum segment size");
  app.add_flag("-N,--no-delay", spec.nodelay, "TCP_NODELAY");
  app.add_option("-S,--tos", spec.tos, "IP type of service")->check(CLI::Range(0, 255));
  app.add_flag("--dont-fragment", spec.dont_fragment, "UDP: set DF, fail instead of fragmenting");
  app.add_flag("--udp-counters-64bit", spec.udp_counters_64bit, "64-bit UDP sequence numbers");
  app.add_option("-B,--bind", spec.bind_address, "local address");
  app.add_option("--bind-dev,-I", spec.bind_device, "send through this interface (as ping -I)");
  app.add_option("--connect-timeout", connect_timeout_s, "seconds per connect attempt");
  app.add_flag("-J,--json", json, "print iperf3 -J JSON at the end");
  std::string workload;
  std::vector<std::uint32_t> rr_sizes{1, 1};
  int load_streams = 0;
  int response_timeout_ms = 1000;
  auto* wl = app.add_option("--workload", workload,
                            "netperf request/response test instead of iperf3: TCP_RR, TCP_CRR or "
                            "UDP_RR (needs hilperf-peer)")
                 ->check(CLI::IsMember({"TCP_RR", "TCP_CRR", "UDP_RR"}, CLI::ignore_case));
  app.add_option("-r,--rr-size", rr_sizes, "request,response bytes (netperf -r)")
      ->delimiter(',')
      ->expected(2)
      ->check(CLI::Range(1U, 1U << 20U))
      ->needs(wl);
  app.add_option("--load", load_streams,
                 "TCP streams each way saturating the link meanwhile (RRUL)")
      ->check(CLI::Range(0, 128))
      ->needs(wl);
  app.add_option("--response-timeout", response_timeout_ms, "ms a transaction may take")
      ->check(CLI::Range(1, 600'000))
      ->needs(wl);
  CLI11_PARSE(app, argc, argv);
  if (!workload.empty()) {
    hil::iperf3::workload_options w;
    w.host = o.host;
    w.port = o.port;
    w.spec.kind = *hil::measure::workload_from_name(workload);
    w.spec.request_size = rr_sizes.at(0);
    w.spec.response_size = rr_sizes.at(1);
    w.spec.duration = std::chrono::milliseconds(static_cast<long>(time_s * 1000));
    w.spec.load_streams = load_streams;
    w.spec.response_timeout = std::chrono::milliseconds(response_timeout_ms);
    w.spec.bind_device = spec.bind_device;
    w.connect_timeout = std::chrono::milliseconds(static_cast<long>(connect_timeout_s * 1000));
    return run_workload_mode(w, json);
  }

  spec.proto = udp ? hil::measure::protocol::udp : hil::measure::protocol::tcp;
  if (!bitrate.empty()) {
    spec.bitrate_bps = *hil::measure::parse_rate(bitrate);
    spec.bitrate_given = true;
  }
  if (!length.empty())
    spec.block_len = static_cast<std::uint32_t>(*hil::measure::parse_size(length));
  if (!window.empty()) spec.window = static_cast<int>(*hil::measure::parse_size(window));
  if (!bytes.empty()) spec.bytes = *hil::measure::parse_size(bytes);
  if (!blocks.empty()) spec.blocks = *hil::measure::parse_size(blocks);
  spec.duration = std::chrono::seconds(static_cast<long>(time_s));
  spec.omit = std::chrono::seconds(static_cast<long>(omit_s));
  spec.interval = std::chrono::milliseconds(static_cast<long>(interval_s * 1000));
  o.connect_timeout = std::chrono::milliseconds(static_cast<long>(connect_timeout_s * 1000));
  o.abort = &interrupted;
  ::signal(SIGINT, on_signal);
  ::signal(SIGTERM, on_signal);

  bool header_printed = false;
  hil::report::text_layout layout;  // sockets and roles for the live lines, as iperf3 prints them
  layout.bidir = spec.bidirectional;
  if (!json) {
    std::cout << fmt::format("Connecting to host {}, port {}\n", o.host, o.port);
    o.on_connected = [&](const hil::measure::stream_endpoint& e) {
      layout.connected.push_back(e);
      std::cout << hil::report::format_connected(e);
    };
    o.on_interval = [&](const hil::measure::interval_sample& s) {
      if (!header_printed && !s.streams.empty()) {
        std::cout << hil::report::format_interval_header(spec.proto, s.streams.front().sender,
                                                         spec.bidirectional);
        header_printed = true;
      }
      std::cout << hil::report::format_interval(s, spec.proto, layout) << std::flush;
    };
  }
  hil::measure::test_result r;
  try {
    r = hil::iperf3::run_client(o);
  } catch (const std::exception& e) {
    if (json) {
      r.spec = spec;
      r.error = e.what();
      std::cout
          << hil::report::to_iperf3_json(r, HIL_VERSION, hil::report::local_system_info()).dump(2)
          << '\n';
    } else {
      std::cerr << "hilperf: error - " << e.what() << '\n';
    }
    return 1;
  }
  if (json) {
    std::cout
        << hil::report::to_iperf3_json(r, HIL_VERSION, hil::report::local_system_info()).dump(2)
        << '\n';
  } else {
    std::cout << hil::report::format_summary(r) << "\nhilperf Done.\n";
  }
  return 0;
}
