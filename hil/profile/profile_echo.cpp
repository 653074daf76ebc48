// The effective profile as TOML, printed at the start of every run so a result can be reproduced
// from its log. Every key is written, defaults included; parse_profile(echo(p)) yields p again.
#include <fmt/format.h>

#include <iterator>
#include <string>
#include <string_view>

#include "hil/profile/profile.hpp"

namespace hil::profile {
namespace {

// The TOML spelling of each enum value, as profile_load.cpp accepts it.
std::string_view name_of(peer_mode mode) {
  switch (mode) {
    case peer_mode::sim:
      return "sim";
    case peer_mode::ssh:
      return "ssh";
    case peer_mode::external:
      return "external";
  }
  return "?";
}

std::string_view name_of(peer_server server) {
  switch (server) {
    case peer_server::hilperf_peer:
      return "hilperf-peer";
    case peer_server::iperf3:
      return "iperf3";
    case peer_server::iperf2:
      return "iperf2";
    case peer_server::netserver:
      return "netserver";
  }
  return "?";
}

std::string_view name_of(duplex_mode duplex) {
  switch (duplex) {
    case duplex_mode::full:
      return "full";
    case duplex_mode::half:
      return "half";
  }
  return "?";
}

// A TOML basic string: quotes, backslashes and control characters escaped.
std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\u{:04X}", static_cast<unsigned>(byte));
    } else {
      out += c;
    }
  }
  return out + '"';
}

// A TOML float: the shortest text that reads back as the same double, always with a '.' or 'e'.
std::string float_text(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // 'n': inf and nan
  return text;
}

// "name = value\n" for the echo's key lines.
template <class Value>
void put(std::string& out, std::string_view name, const Value& value) {
  fmt::format_to(std::back_inserter(out), "{} = {}\n", name, value);
}

void put_durations(std::string& out, std::string_view name, const duration_set& d) {
  fmt::format_to(std::back_inserter(out), "\n[durations.{}]\n", name);
  put(out, "tcp_seconds", d.tcp_seconds);
  put(out, "udp_seconds", d.udp_seconds);
  put(out, "txrx_seconds", d.txrx_seconds);
  put(out, "interval_seconds", d.interval_seconds);
  put(out, "netperf_seconds", d.netperf_seconds);
  put(out, "latency_seconds", d.latency_seconds);
  put(out, "rfc2544_trial_seconds", d.rfc2544_trial_seconds);
  put(out, "rfc2544_confirm_seconds", d.rfc2544_confirm_seconds);
  put(out, "rfc2544_back_to_back_repeats", d.rfc2544_back_to_back_repeats);
  put(out, "y1564_step_seconds", d.y1564_step_seconds);
}

}  // namespace

std::string echo(const profile& p) {
  // The source is a comment; a newline in it must not end the comment early.
  std::string source = p.source;
  for (char& c : source) c = (c == '\n' || c == '\r') ? ' ' : c;
  std::string out = fmt::format("# effective profile from {}\n", source);
  out += "\n[dut]\n";
  put(out, "interface", toml_string(p.dut.interface));
  put(out, "ipv4", toml_string(p.dut.ipv4));
  put(out, "ipv6", toml_string(p.dut.ipv6));
  out += "\n[peer]\n";
  put(out, "mode", toml_string(name_of(p.peer.mode)));
  put(out, "ipv4", toml_string(p.peer.ipv4));
  put(out, "ipv6", toml_string(p.peer.ipv6));
  put(out, "port", p.peer.port);
  put(out, "ssh_target", toml_string(p.peer.ssh_target));
  put(out, "ssh_command", toml_string(p.peer.ssh_command));
  put(out, "server", toml_string(name_of(p.peer.server)));
  put(out, "udp_buffer_bytes", p.peer.udp_buffer_bytes);
  put(out, "netserver_port", p.peer.netserver_port);
  put(out, "username", toml_string(p.peer.username));
  put(out, "rsa_public_key_path", toml_string(p.peer.rsa_public_key_path));
  put(out, "use_pkcs1_padding", p.peer.use_pkcs1_padding);
  out += "\n[link]\n";
  put(out, "speed_mbps", p.link.speed_mbps);
  put(out, "duplex", toml_string(name_of(p.link.duplex)));
  out += "\n[thresholds]\n";
  put(out, "tcp_dut_transmits_mbps", float_text(p.limits.tcp_dut_transmits_mbps));
  put(out, "tcp_dut_receives_mbps", float_text(p.limits.tcp_dut_receives_mbps));
  put(out, "tcp_retransmits_per_interval", p.limits.tcp_retransmits_per_interval);
  put(out, "datagram_count_tolerance_percent",
      float_text(p.limits.datagram_count_tolerance_percent));
  put(out, "bidir_each_way_mbps", float_text(p.limits.bidir_each_way_mbps));
  put(out, "parallel_total_mbps", float_text(p.limits.parallel_total_mbps));
  put(out, "parallel_streams", p.limits.parallel_streams);
  out += "\n[mtu]\n";
  put(out, "tiers", fmt::format("[{}]", fmt::join(p.mtu.tiers, ", ")));
  put(out, "jumbo", p.mtu.jumbo);
  put(out, "jumbo_enabled", p.mtu.jumbo_enabled);
  put_durations(out, "quick", p.quick);
  put_durations(out, "nightly", p.nightly);
  out += "\n[run]\n";
  put(out, "durations", toml_string(p.duration_set_name));
  put(out, "iterations", p.iterations);
  put(out, "quiet_cpu_pressure_percent", float_text(p.quiet_cpu_pressure_percent));
  put(out, "quiet_other_cpu_percent", float_text(p.quiet_other_cpu_percent));
  put(out, "max_attempts", p.max_attempts);
  out += "\n[netperf]\n";
  put(out, "request_size", p.netperf.request_size);
  put(out, "response_size", p.netperf.response_size);
  put(out, "confidence_level", p.netperf.confidence_level);
  put(out, "confidence_width_percent", float_text(p.netperf.confidence_width_percent));
  put(out, "tcp_stream_mbps", float_text(p.netperf.tcp_stream_mbps));
  put(out, "tcp_maerts_mbps", float_text(p.netperf.tcp_maerts_mbps));
  put(out, "udp_stream_mbps", float_text(p.netperf.udp_stream_mbps));
  put(out, "tcp_rr_per_second", float_text(p.netperf.tcp_rr_per_second));
  put(out, "tcp_crr_per_second", float_text(p.netperf.tcp_crr_per_second));
  put(out, "udp_rr_per_second", float_text(p.netperf.udp_rr_per_second));
  out += "\n[latency]\n";
  put(out, "load_streams", p.latency.load_streams);
  put(out, "loaded_p99_ms", float_text(p.latency.loaded_p99_ms));
  out += "\n[rfc2544]\n";
  put(out, "frame_sizes", fmt::format("[{}]", fmt::join(p.rfc2544.frame_sizes, ", ")));
  put(out, "resolution_percent", float_text(p.rfc2544.resolution_percent));
  put(out, "accepted_loss_percent", float_text(p.rfc2544.accepted_loss_percent));
  put(out, "min_percent", float_text(p.rfc2544.min_percent));
  std::string by_frame;
  for (const auto& [frame, percent] : p.rfc2544.min_percent_by_frame) {
    by_frame +=
        fmt::format("{}frame{} = {}", by_frame.empty() ? "" : ", ", frame, float_text(percent));
  }
  put(out, "min_percent_by_frame", by_frame.empty() ? "{}" : "{ " + by_frame + " }");
  put(out, "line_mbps", p.rfc2544.line_mbps);
  put(out, "loss_step_percent", float_text(p.rfc2544.loss_step_percent));
  put(out, "back_to_back_seconds", p.rfc2544.back_to_back_seconds);
  put(out, "back_to_back_min_percent", float_text(p.rfc2544.back_to_back_min_percent));
  put(out, "latency_median_ms", float_text(p.rfc2544.latency_median_ms));
  std::vector<std::string> directions;
  for (const auto d : p.rfc2544.directions) {
    directions.emplace_back(d == frame_direction::dut_receives ? "\"dut_receives\""
                                                               : "\"dut_transmits\"");
  }
  put(out, "directions", fmt::format("[{}]", fmt::join(directions, ", ")));
  put(out, "ip_versions", fmt::format("[{}]", fmt::join(p.rfc2544.ip_versions, ", ")));
  out += "\n[y1564]\n";
  put(out, "frame_sizes", fmt::format("[{}]", fmt::join(p.y1564.frame_sizes, ", ")));
  put(out, "steps_percent", fmt::format("[{}]", fmt::join(p.y1564.steps_percent, ", ")));
  put(out, "cir_mbps", float_text(p.y1564.cir_mbps));
  put(out, "cir_percent", float_text(p.y1564.cir_percent));
  put(out, "flr_percent", float_text(p.y1564.flr_percent));
  put(out, "ftd_ms", float_text(p.y1564.ftd_ms));
  put(out, "fdv_ms", float_text(p.y1564.fdv_ms));
  out += "\n[history]\n";
  put(out, "dir", toml_string(p.history.dir));
  put(out, "tolerance_percent", float_text(p.history.tolerance_percent));
  put(out, "baseline_runs", p.history.baseline_runs);
  out += "\n[sim]\n";
  put(out, "bench", toml_string(p.sim.bench));
  put(out, "peer_interface", toml_string(p.sim.peer_interface));
  put(out, "shape_mbit", p.sim.shape_mbit);
  put(out, "peer_mtu", p.sim.peer_mtu);
  put(out, "frame_port_mbit", p.sim.frame_port_mbit);
  return out;
}

}  // namespace hil::profile
