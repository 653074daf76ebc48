#include "hil/report/report_model.hpp"

#include <algorithm>
#include <map>

namespace hil::report {

namespace {

using json = nlohmann::json;

// The number at key; absent, null or non-numeric gives nullopt. Numbers written as strings
// ("941.2", as goodput_mbps is) are read too.
std::optional<double> number(const json& object, std::string_view key) {
  if (!object.is_object()) return std::nullopt;
  const auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) {
    try {
      std::size_t used = 0;
      const auto& s = it->get_ref<const std::string&>();
      const double v = std::stod(s, &used);
      if (used == s.size()) return v;
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

// The numbers of a JSON array, skipping anything that is not a number.
std::vector<double> numbers(const json& array) {
  std::vector<double> out;
  if (!array.is_array()) return out;
  for (const auto& v : array) {
    if (v.is_number()) out.push_back(v.get<double>());
  }
  return out;
}

std::optional<latency_figures> latency_of(const json& figures, std::string_view key) {
  const auto it = figures.find(key);
  if (it == figures.end() || !it->is_object()) return std::nullopt;
  const json& j = *it;
  return latency_figures{number(j, "count"), number(j, "min"), number(j, "mean"), number(j, "p50"),
                         number(j, "p90"),   number(j, "p99"), number(j, "p999"), number(j, "max")};
}

// [[us, fraction], …] pairs, dropping malformed ones and non-positive x (the axis is logarithmic).
cdf_points cdf_of(const json& figures, std::string_view key) {
  cdf_points out;
  const auto it = figures.find(key);
  if (it == figures.end() || !it->is_array()) return out;
  for (const auto& p : *it) {
    if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number() &&
        p[0].get<double>() > 0) {
      out.emplace_back(p[0].get<double>(), p[1].get<double>());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

netperf_row netperf_row_of(const result_record& r, std::string_view test) {
  const json& f = r.figures;
  netperf_row row;
  row.test = std::string(test);
  row.recorded = true;
  row.pass = r.pass;
  const auto unit = f.find("unit");
  if (unit != f.end() && unit->is_string()) row.unit = unit->get<std::string>();
  const auto iterations = f.find("iterations");
  if (iterations != f.end()) row.iterations = numbers(*iterations);
  row.average = number(f, "average");
  row.ci_half_width = number(f, "ci_half_width");
  row.confidence_level = number(f, "confidence_level");
  const auto met = f.find("confidence_met");
  if (met != f.end() && met->is_boolean()) row.confidence_met = met->get<bool>();
  row.latency = latency_of(f, "latency_us");
  row.latency_cdf = cdf_of(f, "latency_cdf");
  const auto intervals = f.find("interval_mbps");
  if (intervals != f.end() && intervals->is_array()) {
    for (const auto& iteration : *intervals) {
      if (iteration.is_array()) row.interval_mbps.push_back(numbers(iteration));
    }
  }
  return row;
}

// Fills the datagram section from a per-tier case ("mtu" and "datagrams_sent") or from the count
// check ("datagrams_mtu<N>" keys).
void add_datagrams(const json& f, std::map<int, mtu_datagrams>& tiers) {
  const auto mtu = number(f, "mtu");
  const auto sent = number(f, "datagrams_sent");
  if (mtu && sent) {
    auto& t = tiers[static_cast<int>(*mtu)];
    t.mtu = static_cast<int>(*mtu);
    t.sent = sent;
    t.lost = number(f, "lost");
  }
  constexpr std::string_view prefix = "datagrams_mtu";
  for (const auto& [key, value] : f.items()) {
    if (key.rfind(prefix, 0) != 0 || !value.is_number()) continue;
    try {
      const int tier = std::stoi(key.substr(prefix.size()));
      tiers[tier].mtu = tier;
      tiers[tier].counted = value.get<double>();
    } catch (const std::exception&) {
    }
  }
}

void add_latency_under_load(const json& f, report_model& m) {
  if (auto idle = latency_of(f, "idle_latency_us")) {
    m.latency.push_back({"idle", *idle, cdf_of(f, "idle_cdf")});
  }
  if (auto loaded = latency_of(f, "loaded_latency_us")) {
    m.latency.push_back({"loaded", *loaded, cdf_of(f, "loaded_cdf")});
  }
  load_figures load{number(f, "load_up_mbps"), number(f, "load_down_mbps"),
                    number(f, "load_streams")};
  if (load.up_mbps || load.down_mbps || load.streams) m.load = load;
}

}  // namespace

std::string_view netperf_test_of(const result_record& r) {
  const auto it = r.figures.find("test");
  if (it == r.figures.end() || !it->is_string()) return {};
  const auto& test = it->get_ref<const std::string&>();
  for (const auto name : netperf_tests) {
    if (test == name) return name;
  }
  return {};
}

std::string short_case_name(std::string_view case_name) {
  const auto cut = case_name.find_last_of("/.");
  return std::string(cut == std::string_view::npos ? case_name : case_name.substr(cut + 1));
}

report_model build_model(const std::vector<result_record>& records) {
  report_model m;
  std::map<std::string_view, netperf_row> netperf;
  std::map<int, mtu_datagrams> tiers;
  report_model load_part;
  for (const auto& r : records) {
    const json& f = r.figures;
    if (const auto test = netperf_test_of(r); !test.empty()) {
      netperf[test] = netperf_row_of(r, test);
      continue;
    }
    const auto intervals = f.find("interval_mbps");
    if (intervals != f.end() && intervals->is_array() && !intervals->empty() &&
        (*intervals)[0].is_number()) {
      m.throughput.push_back({"TCP throughput", short_case_name(r.case_name), numbers(*intervals)});
    }
    add_datagrams(f, tiers);
    if (f.contains("idle_latency_us") || f.contains("loaded_latency_us")) {
      add_latency_under_load(f, load_part);
    }
  }
  if (!netperf.empty()) {
    for (const auto name : netperf_tests) {
      const auto it = netperf.find(name);
      if (it != netperf.end()) {
        m.netperf.push_back(it->second);
      } else {
        netperf_row missing;  // recorded stays false: the table says "not run"
        missing.test = std::string(name);
        m.netperf.push_back(std::move(missing));
      }
    }
  }
  for (const auto& row : m.netperf) {
    for (std::size_t i = 0; i < row.interval_mbps.size(); ++i) {
      m.throughput.push_back(
          {row.test, "iteration " + std::to_string(i + 1), row.interval_mbps[i]});
    }
    if (row.latency) m.latency.push_back({row.test, *row.latency, row.latency_cdf});
  }
  m.latency.insert(m.latency.end(), load_part.latency.begin(), load_part.latency.end());
  m.load = load_part.load;
  for (const auto& [mtu, t] : tiers) m.datagrams.push_back(t);
  return m;
}

}  // namespace hil::report
