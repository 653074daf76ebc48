#include "hil/record/figures_json.hpp"

#include <cmath>
#include <string>

#include "hil/record/json_reader.hpp"

namespace hil::record::detail {
namespace {

using json = nlohmann::json;

json rounded_list(const std::vector<double>& values, int decimals) {
  json out = json::array();
  for (const double v : values) out.push_back(rounded(v, decimals));
  return out;
}

// Each alternative's JSON; the overloads are picked by std::visit.
json to_json_of(const std::monostate& /*none*/) { return json::object(); }

json to_json_of(const throughput_figures& f) {
  json j{{"protocol", f.protocol},
         {"direction", f.direction},
         {"dut_role", f.dut_role},
         {"ip_version", f.ip_version},
         {"streams", f.streams},
         {"goodput_mbps", rounded(f.goodput_mbps, 1)},
         {"interval_mbps", rounded_list(f.interval_mbps, 1)}};
  if (f.out_mbps) j["out_mbps"] = rounded(*f.out_mbps, 1);
  if (f.in_mbps) j["in_mbps"] = rounded(*f.in_mbps, 1);
  return j;
}

json to_json_of(const retransmit_figures& f) {
  return {{"retransmits_per_interval", f.retransmits_per_interval}};
}

json to_json_of(const udp_tier_figures& f) {
  return {{"mtu", f.mtu},
          {"ip_version", f.ip_version},
          {"payload_bytes", f.payload_bytes},
          {"datagrams_sent", f.datagrams_sent},
          {"highest_sequence_received", f.highest_sequence_received},
          {"lost", f.lost},
          {"jitter_ms", rounded(f.jitter_ms, 3)}};
}

json to_json_of(const datagram_count_figures& f) {
  json tiers = json::array();
  for (const auto& t : f.tiers) {
    tiers.push_back({{"mtu", t.mtu},
                     {"payload_bytes", t.payload_bytes},
                     {"datagrams", t.datagrams},
                     {"expected", rounded(t.expected, 1)}});
  }
  return {
      {"rate_mbps", rounded(f.rate_mbps, 3)}, {"seconds", rounded(f.seconds, 3)}, {"tiers", tiers}};
}

json to_json_of(const netperf_figures& f) {
  json j{{"test", f.test},
         {"unit", f.unit},
         {"iterations", rounded_list(f.iterations, 1)},
         {"ci_width_percent", rounded(f.ci_width_percent, 2)},
         {"confidence_met", f.confidence_met}};
  if (f.average) j["average"] = rounded(*f.average, 1);
  if (f.ci_half_width) j["ci_half_width"] = rounded(*f.ci_half_width, 1);
  if (f.confidence_level_percent) {
    j["confidence_level_percent"] = rounded(*f.confidence_level_percent, 1);
  }
  if (f.latency) j["latency"] = latency_to_json(*f.latency);
  json intervals = json::array();
  for (const auto& iteration : f.interval_mbps) intervals.push_back(rounded_list(iteration, 1));
  j["iteration_interval_mbps"] = intervals;
  return j;
}

json to_json_of(const latency_under_load_figures& f) {
  return {{"idle", latency_to_json(f.idle)},
          {"loaded", latency_to_json(f.loaded)},
          {"load_up_mbps", rounded(f.load_up_mbps, 1)},
          {"load_down_mbps", rounded(f.load_down_mbps, 1)},
          {"load_streams", f.load_streams}};
}

json to_json_of(const icmp_latency_figures& f) {
  return {{"sent", f.sent}, {"received", f.received}, {"latency", latency_to_json(f.latency)}};
}

json to_json_of(const link_figures& f) { return {{"interface", f.interface}}; }

json trial_to_json(const frame_trial_record& t) {
  json j = {{"offered_fps", rounded(t.offered_fps, 1)},
            {"sent_fps", rounded(t.sent_fps, 1)},
            {"sent", t.sent},
            {"received", t.received},
            {"seconds", rounded(t.seconds, 3)},
            {"passed", t.passed},
            {"confirmation", t.confirmation},
            {"valid", t.valid}};
  if (t.port_carried) j["port_carried"] = *t.port_carried;
  if (t.sender_overdue) j["sender_overdue"] = *t.sender_overdue;
  return j;
}

json trials_to_json(const std::vector<frame_trial_record>& trials) {
  json out = json::array();
  for (const auto& t : trials) out.push_back(trial_to_json(t));
  return out;
}

// The frame and port fields every Rfc2544 kind has, at the top of its figures.
json port_to_json(std::uint32_t frame_bytes, std::uint32_t payload_bytes, int ip_version,
                  const std::string& direction, double line_mbps, double media_max_fps,
                  const std::string& pacing, const std::string& tx_path) {
  json j = {{"frame_bytes", frame_bytes},
            {"payload_bytes", payload_bytes},
            {"ip_version", ip_version},
            {"direction", direction},
            {"line_mbps", rounded(line_mbps, 3)},
            {"media_max_fps", rounded(media_max_fps, 1)},
            {"pacing", pacing}};
  if (!tx_path.empty()) j["tx_path"] = tx_path;
  return j;
}

json port_to_json(const frame_port& p) {
  return port_to_json(p.frame_bytes, p.payload_bytes, p.ip_version, p.direction, p.line_mbps,
                      p.media_max_fps, p.pacing, p.tx_path);
}

json to_json_of(const frame_throughput_figures& f) {
  json j = port_to_json(f.frame_bytes, f.payload_bytes, f.ip_version, f.direction, f.line_mbps,
                        f.media_max_fps, f.pacing, f.tx_path);
  if (f.transmit_ceiling_fps) j["transmit_ceiling_fps"] = rounded(*f.transmit_ceiling_fps, 1);
  j["accepted_loss_percent"] = rounded(f.accepted_loss_percent, 6);
  j["resolution_percent"] = rounded(f.resolution_percent, 6);
  j["trials"] = trials_to_json(f.trials);
  if (f.throughput_fps) j["throughput_fps"] = rounded(*f.throughput_fps, 1);
  if (!f.tool_limited.empty()) j["tool_limited"] = f.tool_limited;
  if (f.sender_ceiling_fps) j["sender_ceiling_fps"] = rounded(*f.sender_ceiling_fps, 1);
  return j;
}

json to_json_of(const frame_loss_figures& f) {
  json j = port_to_json(f.port);
  j["step_percent"] = rounded(f.step_percent, 6);
  j["floor_percent"] = rounded(f.floor_percent, 6);
  j["accepted_loss_percent"] = rounded(f.accepted_loss_percent, 6);
  j["settled"] = f.settled;
  j["trials"] = trials_to_json(f.trials);
  if (!f.tool_limited.empty()) j["tool_limited"] = f.tool_limited;
  if (f.sender_ceiling_fps) j["sender_ceiling_fps"] = rounded(*f.sender_ceiling_fps, 1);
  return j;
}

json to_json_of(const back_to_back_figures& f) {
  json bursts = json::array();
  for (const auto& b : f.bursts) {
    bursts.push_back({{"frames", b.frames},
                      {"repeat", b.repeat},
                      {"received", b.received},
                      {"sent_fps", rounded(b.sent_fps, 1)},
                      {"passed", b.passed},
                      {"at_line_rate", b.at_line_rate}});
  }
  json j = port_to_json(f.port);
  j["max_frames"] = f.max_frames;
  j["resolution_percent"] = rounded(f.resolution_percent, 6);
  j["longest"] = f.longest;
  j["average_frames"] = rounded(f.average_frames, 1);
  j["spread_frames"] = rounded(f.spread_frames, 1);
  j["bursts"] = bursts;
  return j;
}

json to_json_of(const frame_latency_figures& f) {
  json j = port_to_json(f.port);
  j["load_percent"] = rounded(f.load_percent, 3);
  j["stream"] = trial_to_json(f.stream);
  j["probes_sent"] = f.probes_sent;
  j["probes_received"] = f.probes_received;
  j["probe_interval_ms"] = rounded(f.probe_interval_ms, 3);
  j["round_trip"] = latency_to_json(f.round_trip);
  return j;
}

json to_json_of(const y1564_figures& f) {
  json steps = json::array();
  for (const auto& s : f.steps) {
    steps.push_back({{"percent", rounded(s.percent, 3)},
                     {"offered_mbps", rounded(s.offered_mbps, 3)},
                     {"ir_mbps", rounded(s.ir_mbps, 3)},
                     {"flr_percent", rounded(s.flr_percent, 6)},
                     {"ftd_ms", rounded(s.ftd_ms, 3)},
                     {"fdv_ms", rounded(s.fdv_ms, 3)},
                     {"pass", s.pass},
                     {"stream", trial_to_json(s.stream)},
                     {"probes_sent", s.probes_sent},
                     {"probes_received", s.probes_received},
                     {"round_trip", latency_to_json(s.round_trip)}});
  }
  json j = port_to_json(f.port);
  j["cir_mbps"] = rounded(f.cir_mbps, 3);
  j["flr_limit_percent"] = rounded(f.flr_limit_percent, 6);
  j["ftd_limit_ms"] = rounded(f.ftd_limit_ms, 3);
  j["fdv_limit_ms"] = rounded(f.fdv_limit_ms, 3);
  j["probe_interval_ms"] = rounded(f.probe_interval_ms, 3);
  j["steps"] = steps;
  return j;
}

throughput_figures throughput_of(const object_reader& r) {
  throughput_figures f;
  f.protocol = r.get<std::string>("protocol");
  f.direction = r.get<std::string>("direction");
  f.dut_role = r.get<std::string>("dut_role");
  f.ip_version = r.get<int>("ip_version");
  f.streams = r.get<int>("streams");
  f.goodput_mbps = r.get<double>("goodput_mbps");
  f.out_mbps = r.optional<double>("out_mbps");
  f.in_mbps = r.optional<double>("in_mbps");
  f.interval_mbps = r.list<double>("interval_mbps");
  return f;
}

udp_tier_figures udp_tier_of(const object_reader& r) {
  udp_tier_figures f;
  f.mtu = r.get<int>("mtu");
  f.ip_version = r.get<int>("ip_version");
  f.payload_bytes = r.get<std::int64_t>("payload_bytes");
  f.datagrams_sent = r.get<std::int64_t>("datagrams_sent");
  f.highest_sequence_received = r.get<std::int64_t>("highest_sequence_received");
  f.lost = r.get<std::int64_t>("lost");
  f.jitter_ms = r.get<double>("jitter_ms");
  return f;
}

datagram_count_figures datagram_counts_of(const object_reader& r) {
  datagram_count_figures f;
  f.rate_mbps = r.get<double>("rate_mbps");
  f.seconds = r.get<double>("seconds");
  const json* tiers = r.find("tiers");
  if (tiers == nullptr || !tiers->is_array()) {
    throw record_error(r.name("tiers") + ": missing or not an array");
  }
  for (std::size_t i = 0; i < tiers->size(); ++i) {
    const object_reader t((*tiers)[i], r.name("tiers") + "[" + std::to_string(i) + "]");
    f.tiers.push_back({t.get<int>("mtu"), t.get<std::int64_t>("payload_bytes"),
                       t.get<std::int64_t>("datagrams"), t.get<double>("expected")});
  }
  return f;
}

netperf_figures netperf_of(const object_reader& r) {
  netperf_figures f;
  f.test = r.get<std::string>("test");
  f.unit = r.get<std::string>("unit");
  f.iterations = r.list<double>("iterations");
  f.average = r.optional<double>("average");
  f.ci_half_width = r.optional<double>("ci_half_width");
  f.confidence_level_percent = r.optional<double>("confidence_level_percent");
  f.ci_width_percent = r.get<double>("ci_width_percent");
  f.confidence_met = r.get<bool>("confidence_met");
  if (const json* l = r.find("latency")) f.latency = latency_from_json(*l, r.name("latency"));
  if (const json* intervals = r.find("iteration_interval_mbps")) {
    const std::string key = r.name("iteration_interval_mbps");
    if (!intervals->is_array()) object_reader::fail_at(key, *intervals, "an array");
    for (std::size_t i = 0; i < intervals->size(); ++i) {
      const std::string where = key + "[" + std::to_string(i) + "]";
      const json& iteration = (*intervals)[i];
      if (!iteration.is_array()) object_reader::fail_at(where, iteration, "an array");
      std::vector<double> values;
      for (const auto& v : iteration) values.push_back(object_reader::as<double>(v, where));
      f.interval_mbps.push_back(std::move(values));
    }
  }
  return f;
}

// r's key, which must be there; a record_error naming it when it is not.
const json& required(const object_reader& r, const char* key) {
  const json* j = r.find(key);
  if (j == nullptr) throw record_error(r.name(key) + ": missing");
  return *j;
}

// The latency distribution at r's key, which must be there.
latency_distribution required_latency(const object_reader& r, const char* key) {
  return latency_from_json(required(r, key), r.name(key));
}

latency_under_load_figures latency_under_load_of(const object_reader& r) {
  latency_under_load_figures f;
  f.idle = required_latency(r, "idle");
  f.loaded = required_latency(r, "loaded");
  f.load_up_mbps = r.get<double>("load_up_mbps");
  f.load_down_mbps = r.get<double>("load_down_mbps");
  f.load_streams = r.get<int>("load_streams");
  return f;
}

icmp_latency_figures icmp_latency_of(const object_reader& r) {
  icmp_latency_figures f;
  f.sent = r.get<std::int64_t>("sent");
  f.received = r.get<std::int64_t>("received");
  f.latency = required_latency(r, "latency");
  return f;
}

// Calls each(element reader) for every object of the array at key, which must be present.
template <typename Each>
void for_each_object(const object_reader& r, const char* key, Each each) {
  const json* items = &required(r, key);
  if (!items->is_array()) object_reader::fail_at(r.name(key), *items, "an array");
  for (std::size_t i = 0; i < items->size(); ++i) {
    each(object_reader((*items)[i], r.name(key) + "[" + std::to_string(i) + "]"));
  }
}

frame_trial_record trial_of(const object_reader& t) {
  frame_trial_record r{t.get<double>("offered_fps"),
                       t.get<double>("sent_fps"),
                       t.get<std::uint64_t>("sent"),
                       t.get<std::uint64_t>("received"),
                       t.get<double>("seconds"),
                       t.get<bool>("passed"),
                       t.get<bool>("confirmation"),
                       t.get<bool>("valid"),
                       std::nullopt,
                       std::nullopt};
  if (t.find("port_carried") != nullptr) r.port_carried = t.get<std::uint64_t>("port_carried");
  if (t.find("sender_overdue") != nullptr) {
    r.sender_overdue = t.get<std::uint64_t>("sender_overdue");
  }
  return r;
}

std::vector<frame_trial_record> trials_of(const object_reader& r) {
  std::vector<frame_trial_record> out;
  for_each_object(r, "trials", [&](const object_reader& t) { out.push_back(trial_of(t)); });
  return out;
}

// The frames' direction: "dut_transmits" when absent (records from before the peer → DUT
// direction), else one of the two words.
std::string direction_of(const object_reader& r) {
  auto d = r.get_or<std::string>("direction", "dut_transmits");
  if (d != "dut_transmits" && d != "dut_receives") {
    throw record_error(r.name("direction") + ": \"" + d +
                       "\" is neither \"dut_transmits\" nor \"dut_receives\"");
  }
  return d;
}

frame_port port_of(const object_reader& r) {
  return {r.get<std::uint32_t>("frame_bytes"),
          r.get<std::uint32_t>("payload_bytes"),
          r.get<int>("ip_version"),
          r.get<double>("line_mbps"),
          r.get<double>("media_max_fps"),
          r.get<std::string>("pacing"),
          direction_of(r),
          r.get_or<std::string>("tx_path", "")};
}

frame_throughput_figures frame_throughput_of(const object_reader& r) {
  const frame_port port = port_of(r);
  frame_throughput_figures f;
  f.frame_bytes = port.frame_bytes;
  f.payload_bytes = port.payload_bytes;
  f.ip_version = port.ip_version;
  f.direction = port.direction;
  f.line_mbps = port.line_mbps;
  f.media_max_fps = port.media_max_fps;
  f.pacing = port.pacing;
  f.tx_path = port.tx_path;
  f.transmit_ceiling_fps = r.optional<double>("transmit_ceiling_fps");
  f.throughput_fps = r.optional<double>("throughput_fps");
  f.accepted_loss_percent = r.get<double>("accepted_loss_percent");
  f.resolution_percent = r.get<double>("resolution_percent");
  f.tool_limited = r.get_or<std::string>("tool_limited", "");
  f.sender_ceiling_fps = r.optional<double>("sender_ceiling_fps");
  f.trials = trials_of(r);
  return f;
}

frame_loss_figures frame_loss_of(const object_reader& r) {
  frame_loss_figures f;
  f.port = port_of(r);
  f.step_percent = r.get<double>("step_percent");
  f.floor_percent = r.get<double>("floor_percent");
  f.accepted_loss_percent = r.get<double>("accepted_loss_percent");
  f.settled = r.get<bool>("settled");
  f.tool_limited = r.get_or<std::string>("tool_limited", "");
  f.sender_ceiling_fps = r.optional<double>("sender_ceiling_fps");
  f.trials = trials_of(r);
  return f;
}

back_to_back_figures back_to_back_of(const object_reader& r) {
  back_to_back_figures f;
  f.port = port_of(r);
  f.max_frames = r.get<std::uint64_t>("max_frames");
  f.resolution_percent = r.get<double>("resolution_percent");
  f.longest = r.list<std::uint64_t>("longest");
  f.average_frames = r.get<double>("average_frames");
  f.spread_frames = r.get<double>("spread_frames");
  for_each_object(r, "bursts", [&](const object_reader& b) {
    f.bursts.push_back({b.get<std::uint64_t>("frames"), b.get<int>("repeat"),
                        b.get<std::uint64_t>("received"), b.get<double>("sent_fps"),
                        b.get<bool>("passed"), b.get<bool>("at_line_rate")});
  });
  return f;
}

// The probed stream of an Rfc2544 latency or a Y1564 step.
frame_trial_record stream_of(const object_reader& r) {
  return trial_of(object_reader(required(r, "stream"), r.name("stream")));
}

frame_latency_figures frame_latency_of(const object_reader& r) {
  frame_latency_figures f;
  f.port = port_of(r);
  f.load_percent = r.get<double>("load_percent");
  f.stream = stream_of(r);
  f.probes_sent = r.get<int>("probes_sent");
  f.probes_received = r.get<int>("probes_received");
  f.probe_interval_ms = r.get<double>("probe_interval_ms");
  f.round_trip = required_latency(r, "round_trip");
  return f;
}

y1564_figures y1564_of(const object_reader& r) {
  y1564_figures f;
  f.port = port_of(r);
  f.cir_mbps = r.get<double>("cir_mbps");
  f.flr_limit_percent = r.get<double>("flr_limit_percent");
  f.ftd_limit_ms = r.get<double>("ftd_limit_ms");
  f.fdv_limit_ms = r.get<double>("fdv_limit_ms");
  f.probe_interval_ms = r.get<double>("probe_interval_ms");
  for_each_object(r, "steps", [&](const object_reader& s) {
    y1564_step_record step;
    step.percent = s.get<double>("percent");
    step.offered_mbps = s.get<double>("offered_mbps");
    step.ir_mbps = s.get<double>("ir_mbps");
    step.flr_percent = s.get<double>("flr_percent");
    step.ftd_ms = s.get<double>("ftd_ms");
    step.fdv_ms = s.get<double>("fdv_ms");
    step.pass = s.get<bool>("pass");
    step.stream = stream_of(s);
    step.probes_sent = s.get<int>("probes_sent");
    step.probes_received = s.get<int>("probes_received");
    step.round_trip = required_latency(s, "round_trip");
    f.steps.push_back(std::move(step));
  });
  return f;
}

}  // namespace

double rounded(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}

json latency_to_json(const latency_distribution& d) {
  const auto& s = d.summary;
  json cdf = json::array();
  for (const auto& [us, fraction] : d.cdf) cdf.push_back({rounded(us, 1), rounded(fraction, 5)});
  return {{"count", s.count},
          {"min_us", rounded(s.min_us, 1)},
          {"mean_us", rounded(s.mean_us, 1)},
          {"p50_us", rounded(s.p50_us, 1)},
          {"p90_us", rounded(s.p90_us, 1)},
          {"p99_us", rounded(s.p99_us, 1)},
          {"p999_us", rounded(s.p999_us, 1)},
          {"max_us", rounded(s.max_us, 1)},
          {"cdf", cdf}};
}

latency_distribution latency_from_json(const json& j, const std::string& path) {
  const object_reader r(j, path);
  latency_distribution d;
  d.summary.count = r.get<std::uint64_t>("count");
  d.summary.min_us = r.get<double>("min_us");
  d.summary.mean_us = r.get<double>("mean_us");
  d.summary.p50_us = r.get<double>("p50_us");
  d.summary.p90_us = r.get<double>("p90_us");
  d.summary.p99_us = r.get<double>("p99_us");
  d.summary.p999_us = r.get<double>("p999_us");
  d.summary.max_us = r.get<double>("max_us");
  if (const json* cdf = r.find("cdf")) {
    if (!cdf->is_array()) object_reader::fail_at(r.name("cdf"), *cdf, "an array");
    for (const auto& p : *cdf) {
      if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) {
        object_reader::fail_at(r.name("cdf"), p, "[microseconds, fraction] pairs");
      }
      d.cdf.emplace_back(p[0].get<double>(), p[1].get<double>());
    }
  }
  return d;
}

json figures_to_json(const figures& f) {
  return std::visit([](const auto& alternative) { return to_json_of(alternative); }, f);
}

figures figures_from_json(std::string_view kind, const json* j) {
  if (kind == "none") return std::monostate{};
  if (j == nullptr) throw record_error("figures: missing for kind " + std::string(kind));
  const object_reader r(*j, "figures");
  if (kind == "throughput") return throughput_of(r);
  if (kind == "retransmits") {
    return retransmit_figures{r.list<std::int64_t>("retransmits_per_interval")};
  }
  if (kind == "udp_tier") return udp_tier_of(r);
  if (kind == "datagram_counts") return datagram_counts_of(r);
  if (kind == "netperf") return netperf_of(r);
  if (kind == "latency_under_load") return latency_under_load_of(r);
  if (kind == "icmp_latency") return icmp_latency_of(r);
  if (kind == "link") return link_figures{r.get<std::string>("interface")};
  if (kind == "rfc2544_throughput") return frame_throughput_of(r);
  if (kind == "rfc2544_frame_loss") return frame_loss_of(r);
  if (kind == "rfc2544_back_to_back") return back_to_back_of(r);
  if (kind == "rfc2544_latency") return frame_latency_of(r);
  if (kind == "y1564") return y1564_of(r);
  throw record_error("kind: \"" + std::string(kind) +
                     "\" is not a kind this hilperf knows (a newer version wrote it?)");
}

}  // namespace hil::record::detail
