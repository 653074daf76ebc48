// iperf3-style text. The line formats are iperf3 3.12's (src/iperf_locale.c) rewritten for fmt,
// which rounds exactly as printf does; the order of lines follows iperf_print_intermediate and
// iperf_print_results (src/iperf_api.c).
#include "hil/report/iperf3_text.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "hil/measure/units.hpp"
#include "hil/report/detail/percent.hpp"
#include "hil/report/iperf3_json.hpp"
#include "hil/sys/json_depth.hpp"

namespace hil::report {
namespace {

using measure::protocol;
using measure::stream_interval;
using measure::stream_result;

// [label][role] start-end sec  transfer  bitrate …  suffix ("sender", "receiver", "(omitted)").
constexpr std::string_view k_separator = "- - - - - - - - - - - - - - - - - - - - - - - - -\n";
constexpr std::string_view k_bw = "[{}]{} {:6.2f}-{:<6.2f} sec  {}  {}                  {}\n";
constexpr std::string_view k_bw_retrans =
    "[{}]{} {:6.2f}-{:<6.2f} sec  {}  {}  {:>3}             {}\n";
constexpr std::string_view k_bw_retrans_cwnd =
    "[{}]{} {:6.2f}-{:<6.2f} sec  {}  {}  {:>3}   {}       {}\n";
constexpr std::string_view k_bw_udp =
    "[{}]{} {:6.2f}-{:<6.2f} sec  {}  {}  {:5.3f} ms  {}/{} ({:.2g}%)  {}\n";
constexpr std::string_view k_bw_udp_sender = "[{}]{} {:6.2f}-{:<6.2f} sec  {}  {} {} {}  {}\n";
constexpr std::string_view k_outoforder =
    "[SUM]{} {:4.1f}-{:4.1f} sec  {} datagrams received out-of-order\n";
constexpr std::string_view k_sum = "SUM";

using detail::percent;

// unit_snprintf with format 'A' (bytes, 1024) or 'a' (bits, 1000): scale up to tera, then
// "#.##", "##.#" or "###"/"####" so the number takes 4 characters.
std::string adaptive_unit(double value, bool bits) {
  static constexpr std::array<double, 5> k_byte_factor{1.0, 1.0 / 1024, 1.0 / 1024 / 1024,
                                                       1.0 / 1024 / 1024 / 1024,
                                                       1.0 / 1024 / 1024 / 1024 / 1024};
  static constexpr std::array<double, 5> k_bit_factor{1.0, 1.0 / 1000, 1.0 / 1000 / 1000,
                                                      1.0 / 1000 / 1000 / 1000,
                                                      1.0 / 1000 / 1000 / 1000 / 1000};
  static constexpr std::array<const char*, 5> k_byte_label{"Byte", "KByte", "MByte", "GByte",
                                                           "TByte"};
  static constexpr std::array<const char*, 5> k_bit_label{"bit", "Kbit", "Mbit", "Gbit", "Tbit"};
  const double base = bits ? 1000.0 : 1024.0;
  std::size_t conv = 0;
  for (double tmp = value; tmp >= base && conv + 1 < k_bit_factor.size(); tmp /= base) ++conv;
  const double scaled = value * (bits ? k_bit_factor : k_byte_factor)[conv];
  const char* label = (bits ? k_bit_label : k_byte_label)[conv];
  if (scaled < 9.995) return fmt::format("{:4.2f} {}", scaled, label);  // 9.995 would print 10.00
  if (scaled < 99.95) return fmt::format("{:4.1f} {}", scaled, label);  // 99.95 would print 100.0
  return fmt::format("{:4.0f} {}", scaled, label);
}

std::string transfer(std::uint64_t bytes) { return format_bytes(static_cast<double>(bytes)); }

// "[TX-C]" and friends with --bidir; nothing otherwise.
std::string role_tag(const text_layout& layout, bool sends) {
  if (!layout.bidir) return {};
  return fmt::format("[{}-{}]", sends ? "TX" : "RX", layout.is_client ? "C" : "S");
}

// The [ ID] of a stream: its socket right-aligned in 3 columns (the id when not connected).
std::string stream_label(const std::vector<measure::stream_endpoint>& connected, int id) {
  const auto it = std::find_if(connected.begin(), connected.end(),
                               [id](const measure::stream_endpoint& e) { return e.id == id; });
  return fmt::format("{:>3}", it == connected.end() ? id : it->socket);
}

// One stream's interval line, or a direction's [SUM] line when `label` is "SUM" (same columns).
struct interval_totals {
  double start_s = 0, end_s = 0, seconds = 0;
  std::uint64_t bytes = 0;
  std::int64_t packets = 0, lost = 0, retransmits = -1, cwnd = -1;
  double jitter_ms = 0;
  bool sender = false, omitted = false;
};

std::string interval_line(const interval_totals& t, std::string_view label, protocol proto,
                          const text_layout& layout) {
  const std::string role = role_tag(layout, t.sender);
  const std::string bytes = transfer(t.bytes);
  const std::string rate = format_bitrate(measure::bits_per_second(t.bytes, t.seconds));
  const std::string_view omitted = t.omitted ? "(omitted)" : "";
  if (proto == protocol::tcp && t.sender && t.retransmits >= 0 && label != k_sum) {
    return fmt::format(
        k_bw_retrans_cwnd, label, role, t.start_s, t.end_s, bytes, rate, t.retransmits,
        format_bytes(static_cast<double>(std::max<std::int64_t>(t.cwnd, 0))), omitted);
  }
  if (proto == protocol::tcp && t.sender && t.retransmits >= 0) {
    return fmt::format(k_bw_retrans, label, role, t.start_s, t.end_s, bytes, rate, t.retransmits,
                       omitted);
  }
  if (proto == protocol::tcp) {
    return fmt::format(k_bw, label, role, t.start_s, t.end_s, bytes, rate, omitted);
  }
  if (t.sender) {
    return fmt::format(k_bw_udp_sender, label, role, t.start_s, t.end_s, bytes, rate,
                       layout.bidir ? "          " : "", t.packets, omitted);
  }
  return fmt::format(k_bw_udp, label, role, t.start_s, t.end_s, bytes, rate, t.jitter_ms, t.lost,
                     t.packets, percent(t.lost, t.packets), omitted);
}

interval_totals totals_of(const stream_interval& s) {
  return {s.start_s,
          s.end_s,
          s.seconds(),
          s.bytes,
          static_cast<std::int64_t>(s.packets),
          s.lost_packets,
          s.retransmits,
          s.snd_cwnd_bytes,
          s.jitter_ms,
          s.sender,
          s.omitted};
}

// A direction's interval sum, timed by the interval's first stream as iperf3 does.
interval_totals sum_of(const std::vector<const stream_interval*>& group,
                       const stream_interval& timing) {
  interval_totals t = totals_of(timing);
  t.bytes = 0;
  t.packets = t.lost = 0;
  t.retransmits = -1;
  t.jitter_ms = 0;
  t.sender = group.front()->sender;
  for (const auto* s : group) {
    t.bytes += s->bytes;
    t.packets += static_cast<std::int64_t>(s->packets);
    t.lost += s->lost_packets;
    if (s->retransmits >= 0)
      t.retransmits = (t.retransmits < 0 ? 0 : t.retransmits) + s->retransmits;
    t.jitter_ms += s->jitter_ms;
  }
  t.jitter_ms /= static_cast<double>(group.size());
  return t;
}

// --- summary ---

std::string summary_header(const measure::test_result& r) {
  const bool bidir = r.spec.bidirectional;
  if (r.spec.proto == protocol::udp) {
    return format_interval_header(protocol::udp, false, bidir);
  }
  const bool retransmits = std::any_of(r.streams.begin(), r.streams.end(),
                                       [](const auto& s) { return s.sender.retransmits >= 0; });
  if (!retransmits) return format_interval_header(protocol::tcp, false, bidir);
  return bidir ? "[ ID][Role] Interval           Transfer     Bitrate         Retr\n"
               : "[ ID] Interval           Transfer     Bitrate         Retr\n";
}

// A sender line with its retransmits when they are known.
std::string tcp_sender_line(std::string_view label, const std::string& role, double seconds,
                            std::uint64_t bytes, std::int64_t retransmits) {
  const std::string rate = format_bitrate(measure::bits_per_second(bytes, seconds));
  if (retransmits < 0) {
    return fmt::format(k_bw, label, role, 0.0, seconds, transfer(bytes), rate, "sender");
  }
  return fmt::format(k_bw_retrans, label, role, 0.0, seconds, transfer(bytes), rate, retransmits,
                     "sender");
}

std::string receiver_line(std::string_view label, const std::string& role, double seconds,
                          std::uint64_t bytes) {
  return fmt::format(k_bw, label, role, 0.0, seconds, transfer(bytes),
                     format_bitrate(measure::bits_per_second(bytes, seconds)), "receiver");
}

std::string udp_line(std::string_view label, const std::string& role, double seconds,
                     std::uint64_t bytes, double jitter_ms, std::int64_t lost, std::int64_t packets,
                     double lost_percent, std::string_view side) {
  return fmt::format(k_bw_udp, label, role, 0.0, seconds, transfer(bytes),
                     format_bitrate(measure::bits_per_second(bytes, seconds)), jitter_ms, lost,
                     packets, lost_percent, side);
}

std::string stream_summary(const stream_result& s, protocol proto, std::string_view label,
                           const std::string& role) {
  const auto& snd = s.sender;
  const auto& rcv = s.receiver;
  if (proto == protocol::tcp) {
    return tcp_sender_line(label, role, snd.seconds, snd.bytes, snd.retransmits) +
           receiver_line(label, role, rcv.seconds, rcv.bytes);
  }
  std::string out =
      udp_line(label, role, snd.seconds, snd.bytes, 0.0, 0, snd.packets, 0.0, "sender");
  if (rcv.out_of_order > 0)
    out += fmt::format(k_outoforder, role, 0.0, snd.seconds, rcv.out_of_order);
  return out + udp_line(label, role, rcv.seconds, rcv.bytes, rcv.jitter_s * 1000.0, rcv.errors,
                        rcv.packets, percent(rcv.errors, rcv.packets), "receiver");
}

// A direction's [SUM] lines; the receiver's loss percentage is over the sender's packets.
std::string direction_summary(const direction_totals& t, protocol proto, const std::string& role) {
  const double ss = t.sender_seconds;
  const double rs = t.receiver_seconds;
  if (proto == protocol::tcp) {
    return tcp_sender_line(k_sum, role, ss, t.sent_bytes, t.retransmits) +
           receiver_line(k_sum, role, rs, t.received_bytes);
  }
  return udp_line(k_sum, role, ss, t.sent_bytes, 0.0, 0, t.sender_packets, 0.0, "sender") +
         udp_line(k_sum, role, rs, t.received_bytes, t.jitter_ms, t.lost_packets,
                  t.receiver_packets, percent(t.lost_packets, t.packets), "receiver");
}

}  // namespace

text_layout layout_of(const measure::test_result& r) {
  return {r.spec.bidirectional, r.is_client, r.connected};
}

std::string format_bytes(double bytes) { return adaptive_unit(bytes, false) + "s"; }

std::string format_bitrate(double bits_per_second) {
  return adaptive_unit(bits_per_second, true) + "s/sec";
}

std::string format_connected(const measure::stream_endpoint& e) {
  return fmt::format("[{:>3}] local {} port {} connected to {} port {}\n", e.socket, e.local_host,
                     e.local_port, e.remote_host, e.remote_port);
}

std::string format_interval_header(protocol proto, bool sender, bool bidir) {
  const std::string_view id = bidir ? "[ ID][Role]" : "[ ID]";
  std::string_view columns = "";
  if (proto == protocol::tcp) {
    columns = sender ? "         Retr  Cwnd" : "";
  } else {
    columns =
        sender && !bidir ? "         Total Datagrams" : "         Jitter    Lost/Total Datagrams";
  }
  return fmt::format("{} Interval           Transfer     Bitrate{}\n", id, columns);
}

std::string format_interval(const measure::interval_sample& sample, protocol proto,
                            const text_layout& layout) {
  const auto groups = interval_directions(sample, layout.is_client);
  if (groups.empty()) return {};
  const stream_interval& first = *groups.front().front();
  const bool several =
      std::any_of(groups.begin(), groups.end(), [](const auto& g) { return g.size() > 1; });
  std::string out;
  if (several && first.start_s > 0) out += k_separator;
  for (const auto& group : groups) {
    for (const auto* s : group) {
      out += interval_line(totals_of(*s), stream_label(layout.connected, s->id), proto, layout);
    }
    if (group.size() > 1) out += interval_line(sum_of(group, first), k_sum, proto, layout);
  }
  return out;
}

std::string format_summary(const measure::test_result& r) {
  const text_layout layout = layout_of(r);
  std::string out(k_separator);
  out += summary_header(r);
  for (const auto& d : end_directions(r)) {
    const std::string role = role_tag(layout, d.local_sends);
    for (const auto* s : d.streams) {
      out += stream_summary(*s, r.spec.proto, stream_label(r.connected, s->id), role);
    }
    if (d.streams.size() > 1) out += direction_summary(d, r.spec.proto, role);
  }
  return out;
}

live_printer::live_printer(std::ostream& out, const measure::test_spec& spec)
    : out_(out), proto_(spec.proto) {
  layout_.bidir = spec.bidirectional;
}

void live_printer::connected(const measure::stream_endpoint& e) {
  layout_.connected.push_back(e);
  out_ << format_connected(e);
}

void live_printer::interval(const measure::interval_sample& s) {
  if (!header_printed_ && !s.streams.empty()) {
    out_ << format_interval_header(proto_, s.streams.front().sender, layout_.bidir);
    header_printed_ = true;
  }
  out_ << format_interval(s, proto_, layout_) << std::flush;
}

std::string format_server_output(const measure::test_result& r) {
  std::ostringstream out;
  out << fmt::format("Accepted connection from {}, port {}\n", r.remote_host, r.remote_port);
  live_printer live(out, r.spec);
  for (const auto& e : r.connected) live.connected(e);
  for (const auto& s : r.intervals) live.interval(s);
  out << format_summary(r);
  return out.str();
}

std::string format_server_output_section(const measure::test_result& r) {
  if (!r.server_output_json.empty() && !sys::json_too_deep(r.server_output_json)) {
    const auto doc = nlohmann::json::parse(r.server_output_json, nullptr, false);
    return fmt::format("\nServer JSON output:\n{}\n", doc.dump(1, '\t'));
  }
  if (!r.server_output_text.empty()) {
    return fmt::format("\nServer output:\n{}\n", r.server_output_text);
  }
  return {};
}

}  // namespace hil::report
