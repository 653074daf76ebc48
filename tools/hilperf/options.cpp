#include "options.hpp"

#include <fmt/format.h>

#include <cmath>

#include "hil/measure/units.hpp"

namespace hilperf {
namespace {

// A CLI11 validator for iperf3-style numbers ("100M", "128K").
CLI::Validator number_with_suffix(bool rate) {
  return CLI::Validator(
      [rate](const std::string& s) {
        const auto v = rate ? hil::measure::parse_rate(s) : hil::measure::parse_size(s);
        return v ? std::string() : "not a number with an optional K/M/G suffix: " + s;
      },
      rate ? "RATE" : "SIZE");
}

// iperf3's own limits (src/iperf.h), so a stock server is never sent what it refuses.
constexpr double max_time_s = 86400;                                    // MAX_TIME
constexpr double max_omit_s = 600;                                      // MAX_OMIT_TIME
constexpr std::uint64_t max_tcp_block = 1024 * 1024;                    // MAX_BLOCKSIZE
constexpr std::uint64_t min_udp_block = 16;                             // MIN_UDP_BLOCKSIZE
constexpr std::uint64_t max_udp_block = hil::measure::max_udp_payload;  // MAX_UDP_BLOCKSIZE
constexpr std::uint64_t max_window = 512ULL * 1024 * 1024;              // MAX_TCP_BUFFER

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
}

void check_iperf3(const raw_options& r, std::vector<std::string>& out) {
  const auto& s = r.client.spec;
  if (!r.bytes.empty() && !r.blocks.empty()) out.emplace_back("-n and -k exclude each other");
  // Written as "inside the range" so that NaN, which compares false, is outside it.
  if (r.bytes.empty() && r.blocks.empty() && !(r.time_s >= 1 && r.time_s <= max_time_s)) {
    out.push_back(
        fmt::format("-t {} is outside 1..{} seconds (iperf3's limit)", r.time_s, max_time_s));
  } else if (r.time_s != std::floor(r.time_s)) {
    out.push_back(
        fmt::format("-t {}: whole seconds only (iperf3 reads -t as an integer, and the "
                    "parameters carry seconds)",
                    r.time_s));
  }
  if (!(r.omit_s >= 0 && r.omit_s <= max_omit_s)) {
    out.push_back(fmt::format("-O {} is outside 0..{} seconds", r.omit_s, max_omit_s));
  }
  if (!(r.interval_s == 0 || (r.interval_s >= 0.1 && r.interval_s <= 60))) {
    out.push_back(
        fmt::format("-i {} is outside 0.1..60 seconds (0 turns the reports off)", r.interval_s));
  }
  if (!r.length.empty()) {
    const auto len = *hil::measure::parse_size(r.length);
    if (r.udp && (len < min_udp_block || len > max_udp_block)) {
      out.push_back(fmt::format("-l {} is outside {}..{} bytes for a UDP datagram", len,
                                min_udp_block, max_udp_block));
    } else if (!r.udp && (len == 0 || len > max_tcp_block)) {
      out.push_back(fmt::format("-l {} is outside 1..{} bytes per TCP write", len, max_tcp_block));
    }
  }
  if (!r.window.empty() && *hil::measure::parse_size(r.window) > max_window) {
    out.push_back(fmt::format("-w {} is above {} bytes (iperf3's limit)", r.window, max_window));
  }
  if (!r.udp && s.dont_fragment) out.emplace_back("--dont-fragment needs -u (UDP)");
  if (!r.udp && s.udp_counters_64bit) out.emplace_back("--udp-counters-64bit needs -u (UDP)");
}

void check_workload(const raw_options& r, std::vector<std::string>& out) {
  const auto& s = r.client.spec;
  const char* applies = "does not apply to --workload (it makes its own traffic)";
  if (r.udp) out.push_back(fmt::format("-u {}: UDP_RR is the UDP workload", applies));
  if (s.reverse || s.bidirectional) out.push_back(fmt::format("-R and --bidir {}", applies));
  if (s.parallel != 1) out.push_back(fmt::format("-P {}: --load adds streams", applies));
  const bool stream_flags = !r.bitrate.empty() || !r.length.empty() || !r.bytes.empty() ||
                            !r.blocks.empty() || !r.window.empty();
  if (stream_flags) out.push_back(fmt::format("-b, -l, -n, -k and -w {}", applies));
  if (!(r.time_s > 0 && r.time_s <= max_time_s)) {
    out.push_back(fmt::format("-t {} is outside 0..{} seconds", r.time_s, max_time_s));
  }
}

}  // namespace

void declare(CLI::App& app, raw_options& raw) {
  auto& o = raw.client;
  auto& spec = o.spec;
  app.add_option("-c,--client", o.host, "server to connect to")->required();
  app.add_option("-p,--port", raw.port, "server port (default 5201; 5001 with --protocol iperf2)")
      ->check(CLI::Range(1, 65535));
  app.add_option("--protocol", raw.protocol,
                 "the server's protocol: iperf3 (iperf3 -s, hilperf-peer) or iperf2 (iperf -s, "
                 "iperf -s -u)")
      ->check(CLI::IsMember({"iperf3", "iperf2"}))
      ->capture_default_str();
  app.add_flag("-u,--udp", raw.udp, "use UDP");
  app.add_option("-b,--bitrate", raw.bitrate, "target bitrate per stream, bits/s (K/M/G decimal)")
      ->check(number_with_suffix(true));
  app.add_option("-l,--length", raw.length, "bytes per write / UDP payload (K/M binary)")
      ->check(number_with_suffix(false));
  app.add_option("-t,--time", raw.time_s, "seconds to transmit")->capture_default_str();
  app.add_option("-n,--bytes", raw.bytes, "bytes to transmit instead of -t")
      ->check(number_with_suffix(false));
  app.add_option("-k,--blockcount", raw.blocks, "blocks to transmit instead of -t")
      ->check(number_with_suffix(false));
  app.add_option("-O,--omit", raw.omit_s, "seconds to omit at the start");
  app.add_option("-i,--interval", raw.interval_s, "seconds between reports (0 = none)")
      ->capture_default_str();
  app.add_option("-P,--parallel", spec.parallel, "parallel streams")->check(CLI::Range(1, 128));
  auto* reverse = app.add_flag("-R,--reverse", spec.reverse, "the server sends");
  app.add_flag("--bidir", spec.bidirectional, "both ends send")->excludes(reverse);
  app.add_option("-w,--window", raw.window, "socket buffer size")->check(number_with_suffix(false));
  app.add_option("-M,--set-mss", spec.mss, "TCP maximum segment size");
  app.add_flag("-N,--no-delay", spec.nodelay, "TCP_NODELAY");
  app.add_option("-S,--tos", spec.tos, "IP type of service")->check(CLI::Range(0, 255));
  app.add_flag("--dont-fragment", spec.dont_fragment, "UDP: set DF, fail instead of fragmenting");
  app.add_flag("--udp-counters-64bit", spec.udp_counters_64bit, "64-bit UDP sequence numbers");
  app.add_flag("--get-server-output", spec.get_server_output,
               "print the server's own output of the test (in -J: server_output_text/_json)");
  app.add_option("-B,--bind", spec.bind_address, "local address");
  app.add_option("--bind-dev,-I", spec.bind_device, "send through this interface (as ping -I)");
  app.add_option("--username", raw.username,
                 "user for the server's RSA authentication (password: IPERF3_PASSWORD)");
  app.add_option("--rsa-public-key-path", raw.rsa_public_key_path,
                 "the server's RSA public key (PEM) to encrypt the credentials with")
      ->check(CLI::ExistingFile);
  app.add_flag("--use-pkcs1-padding", raw.use_pkcs1_padding,
               "encrypt the credentials with PKCS#1 v1.5 padding, as iperf3 clients before "
               "3.17 do (servers before 3.17 read nothing else); default OAEP, as 3.17+");
  app.add_option("--connect-timeout", raw.connect_timeout_s, "seconds per connect attempt")
      ->check(CLI::Range(0.1, 3600.0));
  app.add_flag("-J,--json", raw.json, "print iperf3 -J JSON at the end");
  auto* wl = app.add_option("--workload", raw.workload,
                            "netperf request/response test instead of iperf3: TCP_RR, TCP_CRR or "
                            "UDP_RR (needs hilperf-peer)")
                 ->check(CLI::IsMember({"TCP_RR", "TCP_CRR", "UDP_RR"}, CLI::ignore_case));
  app.add_option("-r,--rr-size", raw.rr_sizes, "request,response bytes (netperf -r)")
      ->delimiter(',')
      ->expected(2)
      ->check(CLI::Range(1U, 1U << 20U))
      ->needs(wl);
  app.add_option("--load", raw.load_streams,
                 "TCP streams each way saturating the link meanwhile (RRUL)")
      ->check(CLI::Range(0, 128))
      ->needs(wl);
  app.add_option("--response-timeout", raw.response_timeout_ms, "ms a transaction may take")
      ->check(CLI::Range(1, 600'000))
      ->needs(wl);
}

std::vector<std::string> problems(const raw_options& raw) {
  std::vector<std::string> out;
  if (raw.protocol == "iperf2" && !raw.workload.empty()) {
    out.emplace_back("--workload needs an iperf3-speaking hilperf-peer, not --protocol iperf2");
  }
  if (raw.protocol == "iperf2" && !raw.username.empty()) {
    out.emplace_back("iperf 2 has no authentication (--username is iperf3's)");
  }
  if (raw.username.empty() != raw.rsa_public_key_path.empty()) {
    out.emplace_back("--username and --rsa-public-key-path go together (iperf3's authentication)");
  }
  if (raw.use_pkcs1_padding && raw.username.empty()) {
    out.emplace_back("--use-pkcs1-padding needs --username and --rsa-public-key-path");
  }
  if (raw.workload.empty()) {
    check_iperf3(raw, out);
  } else {
    check_workload(raw, out);
  }
  return out;
}

run_request to_request(const raw_options& raw) {
  run_request req;
  req.json = raw.json;
  req.iperf2 = raw.protocol == "iperf2";
  const std::uint16_t port = raw.port.value_or(req.iperf2 ? 5001 : 5201);
  std::optional<hil::session::client_auth> auth;
  if (!raw.username.empty()) {
    auth = hil::session::load_client_auth(raw.username, raw.rsa_public_key_path,
                                          raw.use_pkcs1_padding);
  }
  if (!raw.workload.empty()) {
    hil::session::workload_options w;
    w.host = raw.client.host;
    w.port = port;
    w.spec.kind = *hil::measure::workload_from_name(raw.workload);
    w.spec.request_size = raw.rr_sizes.at(0);
    w.spec.response_size = raw.rr_sizes.at(1);
    w.spec.duration = millis(raw.time_s);
    w.spec.load_streams = raw.load_streams;
    w.spec.response_timeout = std::chrono::milliseconds(raw.response_timeout_ms);
    w.spec.bind_device = raw.client.spec.bind_device;
    w.connect_timeout = millis(raw.connect_timeout_s);
    w.auth = auth;
    req.workload = w;
    return req;
  }
  req.client = raw.client;
  req.client.port = port;
  req.client.auth = auth;
  auto& spec = req.client.spec;
  spec.proto = raw.udp ? hil::measure::protocol::udp : hil::measure::protocol::tcp;
  if (!raw.bitrate.empty()) {
    spec.bitrate_bps = *hil::measure::parse_rate(raw.bitrate);
    spec.bitrate_given = true;
  }
  if (!raw.length.empty()) {
    spec.block_len = static_cast<std::uint32_t>(*hil::measure::parse_size(raw.length));
  }
  if (!raw.window.empty()) spec.window = static_cast<int>(*hil::measure::parse_size(raw.window));
  if (!raw.bytes.empty()) spec.bytes = *hil::measure::parse_size(raw.bytes);
  if (!raw.blocks.empty()) spec.blocks = *hil::measure::parse_size(raw.blocks);
  spec.duration = std::chrono::seconds(static_cast<std::int64_t>(raw.time_s));
  spec.omit = std::chrono::seconds(static_cast<std::int64_t>(raw.omit_s));
  spec.interval = millis(raw.interval_s);
  req.client.connect_timeout = millis(raw.connect_timeout_s);
  return req;
}

}  // namespace hilperf
