// iperf3 -J writer and reader. Field lists and formulas follow iperf3 3.12's iperf_on_connect,
// iperf_on_test_start, print_interval_results, iperf_print_intermediate and iperf_print_results
// (src/iperf_api.c); see the header for the layout rules and the deliberate differences.
#include "hil/report/iperf3_json.hpp"

#include <sys/utsname.h>

#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "hil/measure/units.hpp"
#include "hil/report/detail/percent.hpp"
#include "hil/sys/json_depth.hpp"

namespace hil::report {
namespace {

using measure::protocol;
using measure::stream_interval;
using measure::stream_result;
using measure::test_result;
using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// Shared arithmetic

using detail::percent;

// Adds a counter that may be -1 (unknown) to a sum that may still be -1.
std::int64_t add_known(std::int64_t sum, std::int64_t value) {
  if (value < 0) return sum;
  return sum < 0 ? value : sum + value;
}

// The local fd iperf3 reports as a stream's "socket"; the stream id when the stream is unknown.
int socket_of(const test_result& r, int id) {
  for (const auto& c : r.connected) {
    if (c.id == id) return c.socket;
  }
  return id;
}

// Client -> server is the forward direction: iperf3 lists it first and gives it the plain names.
bool is_forward(bool local_sends, bool is_client) { return local_sends == is_client; }

// "sum_sent" or, for the reverse direction of --bidir, "sum_sent_bidir_reverse".
std::string sum_key(std::string_view base, bool suffixed) {
  return suffixed ? fmt::format("{}_bidir_reverse", base) : std::string(base);
}

// ---------------------------------------------------------------------------------------------
// start

// RFC 1123 in GMT exactly as iperf3's strftime("%a, %d %b %Y %H:%M:%S %Z", gmtime(…)).
std::string rfc1123(std::chrono::sys_seconds t) {
  static constexpr std::array<const char*, 7> k_days{"Sun", "Mon", "Tue", "Wed",
                                                     "Thu", "Fri", "Sat"};
  static constexpr std::array<const char*, 12> k_months{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const auto day = std::chrono::floor<std::chrono::days>(t);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss hms{t - day};
  return fmt::format("{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT",
                     k_days[std::chrono::weekday{day}.c_encoding()], unsigned{ymd.day()},
                     k_months[unsigned{ymd.month()} - 1], int{ymd.year()}, hms.hours().count(),
                     hms.minutes().count(), hms.seconds().count());
}

json connected_json(const test_result& r) {
  json out = json::array();
  for (const auto& c : r.connected) {
    out.push_back({{"socket", c.socket},
                   {"local_host", c.local_host},
                   {"local_port", c.local_port},
                   {"remote_host", c.remote_host},
                   {"remote_port", c.remote_port}});
  }
  return out;
}

json test_start_json(const measure::test_spec& s) {
  return {{"protocol", s.proto == protocol::tcp ? "TCP" : "UDP"},
          {"num_streams", s.parallel},
          {"blksize", s.effective_block_len()},
          {"omit", s.omit.count()},
          {"duration", s.duration.count()},
          {"bytes", s.bytes},
          {"blocks", s.blocks},
          {"reverse", s.reverse ? 1 : 0},
          {"tos", s.tos},
          {"target_bitrate", s.effective_bitrate()},
          {"bidir", s.bidirectional ? 1 : 0}};
}

json start_json(const test_result& r, std::string_view version, std::string_view system_info) {
  json start{{"connected", connected_json(r)},
             {"version", fmt::format("hilperf {} (iperf3 3.12 compatible)", version)},
             {"system_info", system_info}};
  // Like iperf3, a test that never got its control connection reports nothing more.
  if (r.cookie.empty() && r.connected.empty()) return start;
  const auto secs = std::chrono::floor<std::chrono::seconds>(r.started);
  start["timestamp"] = {{"time", rfc1123(secs)}, {"timesecs", secs.time_since_epoch().count()}};
  start[r.is_client ? "connecting_to" : "accepted_connection"] = {{"host", r.remote_host},
                                                                  {"port", r.remote_port}};
  start["cookie"] = r.cookie.substr(0, r.cookie.find('\0'));  // the wire form ends in a NUL
  if (r.spec.proto == protocol::tcp) {
    if (r.spec.mss != 0) {
      start["tcp_mss"] = r.spec.mss;
    } else {
      start["tcp_mss_default"] = r.tcp_mss;
    }
  }
  start["target_bitrate"] = r.spec.effective_bitrate();
  start["sock_bufsize"] = r.spec.window;
  start["sndbuf_actual"] = r.sndbuf_actual;
  start["rcvbuf_actual"] = r.rcvbuf_actual;
  start["test_start"] = test_start_json(r.spec);
  return start;
}

// ---------------------------------------------------------------------------------------------
// intervals

json interval_stream_json(const stream_interval& s, protocol proto, int socket) {
  json j{{"socket", socket},       {"start", s.start_s}, {"end", s.end_s},
         {"seconds", s.seconds()}, {"bytes", s.bytes},   {"bits_per_second", s.bits_per_second()}};
  if (proto == protocol::tcp && s.sender) {
    j["retransmits"] = s.retransmits;
    j["snd_cwnd"] = s.snd_cwnd_bytes;
    j["snd_wnd"] = s.snd_wnd_bytes;
    j["rtt"] = s.rtt_us;
    j["rttvar"] = s.rttvar_us;
    j["pmtu"] = s.pmtu;
  } else if (proto == protocol::udp && s.sender) {
    j["packets"] = s.packets;
  } else if (proto == protocol::udp) {
    const auto packets = static_cast<std::int64_t>(s.packets);
    j["jitter_ms"] = s.jitter_ms;
    j["lost_packets"] = s.lost_packets;
    j["packets"] = packets;
    j["lost_percent"] = percent(s.lost_packets, packets);
  }
  j["omitted"] = s.omitted;
  j["sender"] = s.sender;
  return j;
}

// One direction's interval sum; iperf3 times every sum by the interval's first stream.
json interval_sum_json(const std::vector<const stream_interval*>& group,
                       const stream_interval& timing, protocol proto) {
  std::uint64_t bytes = 0;
  std::int64_t packets = 0, lost = 0, retransmits = -1;
  double jitter_ms = 0;
  for (const auto* s : group) {
    bytes += s->bytes;
    packets += static_cast<std::int64_t>(s->packets);
    lost += s->lost_packets;
    retransmits = add_known(retransmits, s->retransmits);
    jitter_ms += s->jitter_ms;
  }
  const bool sender = group.front()->sender;
  json j{{"start", timing.start_s},
         {"end", timing.end_s},
         {"seconds", timing.seconds()},
         {"bytes", bytes},
         {"bits_per_second", measure::bits_per_second(bytes, timing.seconds())}};
  if (proto == protocol::tcp && sender) {
    j["retransmits"] = retransmits;
  } else if (proto == protocol::udp && sender) {
    j["packets"] = packets;
  } else if (proto == protocol::udp) {
    j["jitter_ms"] = jitter_ms / static_cast<double>(group.size());
    j["lost_packets"] = lost;
    j["packets"] = packets;
    j["lost_percent"] = percent(lost, packets);
  }
  j["omitted"] = timing.omitted;
  j["sender"] = sender;
  return j;
}

// Samples without streams are left out, as iperf3 leaves out empty trailing intervals.
json intervals_json(const test_result& r) {
  json out = json::array();
  for (const auto& sample : r.intervals) {
    const auto groups = interval_directions(sample, r.is_client);
    if (groups.empty()) continue;
    json streams = json::array();
    for (const auto& group : groups) {
      for (const auto* s : group) {
        streams.push_back(interval_stream_json(*s, r.spec.proto, socket_of(r, s->id)));
      }
    }
    json interval{{"streams", std::move(streams)}};
    for (const auto& group : groups) {
      const bool reverse = !is_forward(group.front()->sender, r.is_client);
      const bool suffixed = reverse && (r.spec.bidirectional || groups.size() > 1);
      interval[sum_key("sum", suffixed)] =
          interval_sum_json(group, *groups.front().front(), r.spec.proto);
    }
    out.push_back(std::move(interval));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// end

json end_tcp_stream_json(const stream_result& s, int socket) {
  const auto& snd = s.sender;
  const auto& rcv = s.receiver;
  const double local_seconds = s.local_sends ? snd.seconds : rcv.seconds;
  return {{"sender",
           {{"socket", socket},
            {"start", 0},
            {"end", snd.seconds},
            {"seconds", snd.seconds},
            {"bytes", snd.bytes},
            {"bits_per_second", measure::bits_per_second(snd.bytes, snd.seconds)},
            {"retransmits", snd.retransmits},
            {"max_snd_cwnd", snd.max_snd_cwnd_bytes},
            {"max_snd_wnd", snd.max_snd_wnd_bytes},
            {"max_rtt", snd.max_rtt_us},
            {"min_rtt", snd.min_rtt_us},
            {"mean_rtt", snd.mean_rtt_us},
            {"sender", s.local_sends}}},
          {"receiver",
           {{"socket", socket},
            {"start", 0},
            {"end", rcv.seconds},
            {"seconds", local_seconds},  // iperf3 puts the local end's duration here
            {"bytes", rcv.bytes},
            {"bits_per_second", measure::bits_per_second(rcv.bytes, rcv.seconds)},
            {"sender", s.local_sends}}}};
}

// iperf3 emits one object per UDP stream mixing both ends: sender bytes/time, receiver loss.
json end_udp_stream_json(const stream_result& s, int socket) {
  const auto& snd = s.sender;
  const auto& rcv = s.receiver;
  const std::int64_t packets = snd.packets != 0 ? snd.packets : rcv.packets;
  return {{"udp",
           {{"socket", socket},
            {"start", 0},
            {"end", snd.seconds},
            {"seconds", snd.seconds},
            {"bytes", snd.bytes},
            {"bits_per_second", measure::bits_per_second(snd.bytes, snd.seconds)},
            {"jitter_ms", rcv.jitter_s * 1000.0},
            {"lost_packets", rcv.errors},
            {"packets", packets},
            {"lost_percent", percent(rcv.errors, packets)},
            {"out_of_order", rcv.out_of_order},
            {"sender", s.local_sends}}}};
}

json udp_sum_json(double end_s, std::uint64_t bytes, double bps, double jitter_ms,
                  std::int64_t lost, std::int64_t packets, double lost_percent, bool sender) {
  return {{"start", 0},           {"end", end_s},           {"seconds", end_s},
          {"bytes", bytes},       {"bits_per_second", bps}, {"jitter_ms", jitter_ms},
          {"lost_packets", lost}, {"packets", packets},     {"lost_percent", lost_percent},
          {"sender", sender}};
}

void add_end_sums(json& end, const direction_totals& t, protocol proto, bool suffixed) {
  const double ss = t.sender_seconds;
  const double rs = t.receiver_seconds;
  if (proto == protocol::tcp) {
    end[sum_key("sum_sent", suffixed)] = {
        {"start", 0},
        {"end", ss},
        {"seconds", ss},
        {"bytes", t.sent_bytes},
        {"bits_per_second", measure::bits_per_second(t.sent_bytes, ss)},
        {"retransmits", t.retransmits},
        {"sender", t.local_sends}};
    end[sum_key("sum_received", suffixed)] = {
        {"start", 0},
        {"end", rs},
        {"seconds", rs},
        {"bytes", t.received_bytes},
        {"bits_per_second", measure::bits_per_second(t.received_bytes, rs)},
        {"sender", t.local_sends}};
    return;
  }
  const double lost_percent = percent(t.lost_packets, t.packets);
  // The legacy "sum": receiver time, sender bytes and rate, receiver loss (as iperf3 mixes them).
  end[sum_key("sum", suffixed)] =
      udp_sum_json(rs, t.sent_bytes, measure::bits_per_second(t.sent_bytes, ss), t.jitter_ms,
                   t.lost_packets, t.packets, lost_percent, t.local_sends);
  end[sum_key("sum_sent", suffixed)] =
      udp_sum_json(ss, t.sent_bytes, measure::bits_per_second(t.sent_bytes, ss), 0.0, 0,
                   t.sender_packets, 0.0, true);
  end[sum_key("sum_received", suffixed)] =
      udp_sum_json(rs, t.received_bytes, measure::bits_per_second(t.received_bytes, rs),
                   t.jitter_ms, t.lost_packets, t.receiver_packets, lost_percent, false);
}

json end_json(const test_result& r) {
  json end = json::object();
  if (r.streams.empty()) return end;
  const auto directions = end_directions(r);
  json streams = json::array();
  for (const auto& d : directions) {
    for (const auto* s : d.streams) {
      const int socket = socket_of(r, s->id);
      streams.push_back(r.spec.proto == protocol::tcp ? end_tcp_stream_json(*s, socket)
                                                      : end_udp_stream_json(*s, socket));
    }
  }
  end["streams"] = std::move(streams);
  for (const auto& d : directions) {
    add_end_sums(end, d, r.spec.proto,
                 !d.forward && (r.spec.bidirectional || directions.size() > 1));
  }
  end["cpu_utilization_percent"] = {
      {"host_total", r.local_cpu.total},   {"host_user", r.local_cpu.user},
      {"host_system", r.local_cpu.system}, {"remote_total", r.remote_cpu.total},
      {"remote_user", r.remote_cpu.user},  {"remote_system", r.remote_cpu.system}};
  if (r.spec.proto == protocol::tcp && !r.sender_congestion.empty()) {
    end["sender_tcp_congestion"] = r.sender_congestion;
  }
  if (r.spec.proto == protocol::tcp && !r.receiver_congestion.empty()) {
    end["receiver_tcp_congestion"] = r.receiver_congestion;
  }
  return end;
}

// ---------------------------------------------------------------------------------------------
// Reading

[[noreturn]] void malformed(std::string_view what) {
  throw std::system_error(std::make_error_code(std::errc::protocol_error),
                          fmt::format("iperf3 JSON: {}", what));
}

// Replaces bare nan/inf tokens outside strings (printf output of older iperf3, esnet/iperf#826)
// with null so the document still parses.
std::string without_non_finite(std::string_view text) {
  static constexpr std::array<std::string_view, 4> k_tokens{"-nan", "nan", "-inf", "inf"};
  std::string out;
  out.reserve(text.size());
  sys::json_string_scan strings;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!strings.in_string(c)) {
      bool replaced = false;
      for (const auto token : k_tokens) {
        if (text.substr(i).starts_with(token)) {
          out += "null";
          i += token.size() - 1;
          replaced = true;
          break;
        }
      }
      if (replaced) continue;
    }
    out += c;
  }
  return out;
}

// The first complete JSON value starting at the first '{'; what follows it is ignored.
json first_object(std::string_view text) {
  const auto open = text.find('{');
  if (open == std::string_view::npos) malformed("no JSON object in the input");
  if (sys::json_too_deep(text.substr(open))) {
    malformed(fmt::format("the JSON nests deeper than {} levels", sys::json_depth_limit));
  }
  std::istringstream in(without_non_finite(text.substr(open)));
  json doc;
  try {
    in >> doc;  // operator>> parses one value and leaves the rest of the stream alone
  } catch (const json::exception& e) {
    malformed(fmt::format("not valid JSON: {}", e.what()));
  }
  return doc;
}

// A JSON object and its path in the document, so every complaint names what is missing.
class node {
 public:
  node(const json& value, std::string path) : value_(&value), path_(std::move(path)) {}

  // The member `key`, which must be present.
  [[nodiscard]] node at(const char* key) const {
    const json* v = find(key);
    if (v == nullptr) malformed(fmt::format("\"{}\" is missing", child_path(key)));
    return {*v, child_path(key)};
  }
  // The member `key` when present.
  [[nodiscard]] std::optional<node> maybe(const char* key) const {
    const json* v = find(key);
    if (v == nullptr) return std::nullopt;
    return node{*v, child_path(key)};
  }
  // An integer; values >= 2^63 (iperf3 3.12's unsigned -1) read as -1, null as 0.
  [[nodiscard]] std::int64_t integer(const char* key) const { return as_integer(at(key)); }
  [[nodiscard]] std::int64_t integer_or(const char* key, std::int64_t fallback) const {
    const auto n = maybe(key);
    return n ? as_integer(*n) : fallback;
  }
  // A floating-point number; null (a former nan) reads as 0.
  [[nodiscard]] double number(const char* key) const { return as_number(at(key)); }
  [[nodiscard]] double number_or(const char* key, double fallback) const {
    const auto n = maybe(key);
    return n ? as_number(*n) : fallback;
  }
  [[nodiscard]] std::string text(const char* key) const {
    const node n = at(key);
    if (!n.value_->is_string()) malformed(fmt::format("\"{}\" is not a string", n.path_));
    return n.value_->get<std::string>();
  }
  [[nodiscard]] const json& value() const { return *value_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  [[nodiscard]] const json* find(const char* key) const {
    if (!value_->is_object()) malformed(fmt::format("\"{}\" is not an object", path_));
    const auto it = value_->find(key);
    return it == value_->end() ? nullptr : &*it;
  }
  [[nodiscard]] std::string child_path(const char* key) const {
    return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
  }
  static std::int64_t as_integer(const node& n) {
    const json& v = *n.value_;
    constexpr double k_two_63 = 9223372036854775808.0;
    if (v.is_number_unsigned()) {
      const auto u = v.get<std::uint64_t>();
      return u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                 ? -1
                 : static_cast<std::int64_t>(u);
    }
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_number_float()) {
      const double d = v.get<double>();
      return std::fabs(d) >= k_two_63 ? -1 : static_cast<std::int64_t>(std::llround(d));
    }
    if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
    if (v.is_null()) return 0;
    malformed(fmt::format("\"{}\" is not a number", n.path_));
  }
  static double as_number(const node& n) {
    const json& v = *n.value_;
    if (v.is_number()) return v.get<double>();
    if (v.is_null()) return 0.0;
    malformed(fmt::format("\"{}\" is not a number", n.path_));
  }

  const json* value_;
  std::string path_;
};

std::uint64_t as_count(std::int64_t v) { return v > 0 ? static_cast<std::uint64_t>(v) : 0U; }

void read_test_start(const node& root, iperf3_summary& s) {
  const node ts = root.at("start").at("test_start");
  const std::string proto = ts.text("protocol");
  if (proto == "TCP") {
    s.proto = protocol::tcp;
  } else if (proto == "UDP") {
    s.proto = protocol::udp;
  } else {
    malformed(fmt::format("start.test_start.protocol \"{}\" is neither TCP nor UDP", proto));
  }
  // Range-checked before the cast: 440737095510 streams read as a negative int (found by
  // fuzz/iperf3_json.cpp), and -1 (3.12's unsigned -1) is no count either.
  const std::int64_t streams = ts.integer("num_streams");
  if (streams < 0 || streams > std::numeric_limits<int>::max()) {
    malformed(fmt::format("start.test_start.num_streams {} is no stream count", streams));
  }
  s.num_streams = static_cast<int>(streams);
  s.reverse = ts.integer_or("reverse", 0) != 0;
  s.bidir = ts.integer_or("bidir", 0) != 0;
  s.duration_s = ts.number_or("duration", 0.0);
}

void read_intervals(const node& root, iperf3_summary& s) {
  const node intervals = root.at("intervals");
  if (!intervals.value().is_array()) malformed("\"intervals\" is not an array");
  s.interval_count = intervals.value().size();
}

void read_end(const node& root, iperf3_summary& s) {
  const node end = root.at("end");
  s.bidir = s.bidir || end.maybe("sum_sent_bidir_reverse").has_value();
  const node sent = end.at("sum_sent");
  const node received = end.at("sum_received");
  s.duration_s = sent.number("seconds");
  s.sent_bytes = as_count(sent.integer("bytes"));
  s.sent_bps = sent.number("bits_per_second");
  s.received_bytes = as_count(received.integer("bytes"));
  s.received_bps = received.number("bits_per_second");
  if (s.proto == protocol::tcp) {
    s.retransmits = sent.integer_or("retransmits", -1);  // a 3.12 receiving server omits it
  } else {
    s.packets = sent.integer_or("packets", 0);
    if (s.packets == 0) s.packets = received.integer_or("packets", 0);
    s.lost_packets = received.integer("lost_packets");
    s.jitter_ms = received.number("jitter_ms");
    s.lost_percent = received.number("lost_percent");
  }
  if (const auto cpu = end.maybe("cpu_utilization_percent")) {
    s.host_cpu_total = cpu->number_or("host_total", 0.0);
    s.remote_cpu_total = cpu->number_or("remote_total", 0.0);
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Public

std::vector<direction_totals> end_directions(const test_result& r) {
  std::array<direction_totals, 2> d;  // [0] forward, [1] reverse
  d[1].forward = false;
  for (const auto& s : r.streams) {
    direction_totals& t = d[is_forward(s.local_sends, r.is_client) ? 0 : 1];
    if (t.streams.empty()) {
      t.local_sends = s.local_sends;
      t.sender_seconds = s.sender.seconds;
      t.receiver_seconds = s.receiver.seconds;
    }
    t.streams.push_back(&s);
    t.sent_bytes += s.sender.bytes;
    t.received_bytes += s.receiver.bytes;
    t.retransmits = add_known(t.retransmits, s.sender.retransmits);
    t.sender_packets += s.sender.packets;
    t.receiver_packets += s.receiver.packets;
    t.packets += s.sender.packets != 0 ? s.sender.packets : s.receiver.packets;
    t.lost_packets += s.receiver.errors;
    t.jitter_ms += s.receiver.jitter_s * 1000.0;
  }
  std::vector<direction_totals> out;
  for (auto& t : d) {
    if (t.streams.empty()) continue;
    t.jitter_ms /= static_cast<double>(t.streams.size());
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<std::vector<const stream_interval*>> interval_directions(
    const measure::interval_sample& sample, bool is_client) {
  std::vector<const stream_interval*> forward, reverse;
  for (const auto& s : sample.streams) {
    (is_forward(s.sender, is_client) ? forward : reverse).push_back(&s);
  }
  std::vector<std::vector<const stream_interval*>> out;
  if (!forward.empty()) out.push_back(std::move(forward));
  if (!reverse.empty()) out.push_back(std::move(reverse));
  return out;
}

nlohmann::json to_iperf3_json(const test_result& r, std::string_view version,
                              std::string_view system_info) {
  json doc{{"start", start_json(r, version, system_info)},
           {"intervals", intervals_json(r)},
           {"end", end_json(r)}};
  // --get-server-output, after "end" as in iperf3's client document.
  if (!r.server_output_json.empty() && !sys::json_too_deep(r.server_output_json)) {
    doc["server_output_json"] = json::parse(r.server_output_json, nullptr, false);
  } else if (!r.server_output_text.empty()) {
    doc["server_output_text"] = r.server_output_text;
  }
  if (!r.error.empty()) doc["error"] = r.error;
  return doc;
}

std::string local_system_info() {
  utsname u{};
  if (::uname(&u) != 0) return "unknown";
  return fmt::format("{} {} {} {} {}", u.sysname, u.nodename, u.release, u.version, u.machine);
}

iperf3_summary parse_iperf3_json(std::string_view text) {
  const json doc = first_object(text);
  if (!doc.is_object()) malformed("the first JSON value is not an object");
  const node root{doc, ""};
  iperf3_summary s;
  if (const auto error = root.maybe("error")) {
    s.error =
        error->value().is_string() ? error->value().get<std::string>() : error->value().dump();
  }
  const std::array<void (*)(const node&, iperf3_summary&), 3> readers{read_test_start,
                                                                      read_intervals, read_end};
  for (const auto read : readers) {
    if (s.error.empty()) {
      read(root, s);
      continue;
    }
    try {  // a failed test's document has whatever iperf3 had got to: take what is there
      read(root, s);
    } catch (const std::system_error&) {
    }
  }
  return s;
}

}  // namespace hil::report
