// Schema 1: the records hilperf wrote before typed records (no "schema" key). Their figures were
// named per case, so the kind is told from the keys present — here only, for files already kept
// in a board's nightly history. Every field is optional, and numbers written as strings
// ("941.2", as TcpThroughput wrote goodput_mbps) are read as numbers.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "hil/record/record_json.hpp"

namespace hil::record {
namespace {

using json = nlohmann::json;

// The most attempts a schema 1 record may count: a profile allows 10 (run.max_attempts).
constexpr std::size_t max_legacy_attempts = 1000;

std::optional<double> number(const json& object, std::string_view key) {
  if (!object.is_object()) return std::nullopt;
  const auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) {
    const auto& s = it->get_ref<const std::string&>();
    try {
      std::size_t used = 0;
      const double v = std::stod(s, &used);
      if (used == s.size()) return v;
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

std::string text(const json& object, std::string_view key) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return {};
  return it->is_string() ? it->get<std::string>() : it->dump();
}

bool flag(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

// v as a T, its fraction dropped. A value beyond T's range (or nan and inf, which strings may
// spell) is a record_error naming what: casting it would be undefined behaviour (found by
// fuzz/results_file.cpp: an mtu of 5e76).
template <typename T>
T integral(double v, std::string_view what) {
  const double whole = std::trunc(v);
  // T's range as doubles, exactly: [-2^digits, 2^digits) signed, [0, 2^digits) unsigned.
  const double end = std::ldexp(1.0, std::numeric_limits<T>::digits);
  const double lowest = std::numeric_limits<T>::is_signed ? -end : 0.0;
  if (!(whole >= lowest && whole < end)) {
    throw record_error(fmt::format("{}: {} does not fit the field", what, v));
  }
  return static_cast<T>(whole);
}

// The number at key as a T (integral()); fallback when absent.
template <typename T>
T integer(const json& object, std::string_view key, T fallback) {
  const auto v = number(object, key);
  return v ? integral<T>(*v, key) : fallback;
}

std::int64_t whole(const json& object, std::string_view key) {
  return integer<std::int64_t>(object, key, 0);
}

std::vector<double> numbers(const json& array) {
  std::vector<double> out;
  if (!array.is_array()) return out;
  for (const auto& v : array) {
    if (v.is_number()) out.push_back(v.get<double>());
  }
  return out;
}

// Schema 1 latency: {"count","min","mean","p50","p90","p99","p999","max"} plus a separate CDF.
latency_distribution latency_of(const json& summary, const json& cdf) {
  latency_distribution d;
  d.summary.count = integer<std::uint64_t>(summary, "count", 0);
  d.summary.min_us = number(summary, "min").value_or(0);
  d.summary.mean_us = number(summary, "mean").value_or(0);
  d.summary.p50_us = number(summary, "p50").value_or(0);
  d.summary.p90_us = number(summary, "p90").value_or(0);
  d.summary.p99_us = number(summary, "p99").value_or(0);
  d.summary.p999_us = number(summary, "p999").value_or(0);
  d.summary.max_us = number(summary, "max").value_or(0);
  if (cdf.is_array()) {
    for (const auto& p : cdf) {
      if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number()) {
        d.cdf.emplace_back(p[0].get<double>(), p[1].get<double>());
      }
    }
  }
  return d;
}

json member(const json& f, const char* key) { return f.contains(key) ? f.at(key) : json(); }

netperf_figures netperf_of(const json& f) {
  netperf_figures n;
  n.test = text(f, "test");
  n.unit = text(f, "unit");
  n.iterations = numbers(member(f, "iterations"));
  n.average = number(f, "average");
  n.ci_half_width = number(f, "ci_half_width");
  n.confidence_level_percent = number(f, "confidence_level");
  n.ci_width_percent = number(f, "ci_width_percent").value_or(0);
  n.confidence_met = flag(f, "confidence_met");
  if (f.contains("latency_us"))
    n.latency = latency_of(f.at("latency_us"), member(f, "latency_cdf"));
  const json intervals = member(f, "interval_mbps");
  if (intervals.is_array()) {
    for (const auto& iteration : intervals) {
      if (iteration.is_array()) n.interval_mbps.push_back(numbers(iteration));
    }
  }
  return n;
}

datagram_count_figures datagram_counts_of(const json& f) {
  datagram_count_figures d;
  constexpr std::string_view prefix = "datagrams_mtu";
  for (const auto& [key, value] : f.items()) {
    if (key.rfind(prefix, 0) != 0 || !value.is_number()) continue;
    try {
      d.tiers.push_back({std::stoi(key.substr(prefix.size())), 0, value.get<std::int64_t>(), 0});
    } catch (const std::exception&) {
    }
  }
  std::sort(d.tiers.begin(), d.tiers.end(),
            [](const auto& a, const auto& b) { return a.mtu < b.mtu; });
  return d;
}

throughput_figures throughput_of(const json& f) {
  throughput_figures t;
  t.out_mbps = number(f, "out_mbps");
  t.in_mbps = number(f, "in_mbps");
  if (t.out_mbps || t.in_mbps) t.direction = "both";
  t.goodput_mbps =
      number(f, "goodput_mbps")
          .value_or(number(f, "sum_mbps").value_or(t.out_mbps.value_or(0) + t.in_mbps.value_or(0)));
  t.streams = integer<int>(f, "streams", 1);
  t.dut_role = f.contains("dut_role") ? text(f, "dut_role") : "client";
  t.interval_mbps = numbers(member(f, "interval_mbps"));
  return t;
}

figures figures_of(const json& f) {
  if (!f.is_object() || f.empty()) return std::monostate{};
  if (f.contains("test")) return netperf_of(f);
  if (f.contains("idle_latency_us") || f.contains("loaded_latency_us")) {
    return latency_under_load_figures{
        latency_of(member(f, "idle_latency_us"), member(f, "idle_cdf")),
        latency_of(member(f, "loaded_latency_us"), member(f, "loaded_cdf")),
        number(f, "load_up_mbps").value_or(0), number(f, "load_down_mbps").value_or(0),
        integer<int>(f, "load_streams", 0)};
  }
  if (f.contains("latency_us")) {
    return icmp_latency_figures{0, 0, latency_of(f.at("latency_us"), member(f, "latency_cdf"))};
  }
  if (f.contains("mtu") && f.contains("datagrams_sent")) {
    return udp_tier_figures{integer<int>(f, "mtu", 0),
                            4,
                            whole(f, "payload_bytes"),
                            whole(f, "datagrams_sent"),
                            whole(f, "highest_sequence_received"),
                            whole(f, "lost"),
                            number(f, "jitter_ms").value_or(0)};
  }
  auto counts = datagram_counts_of(f);
  if (!counts.tiers.empty()) return counts;
  if (f.contains("retransmits_per_interval")) {
    retransmit_figures r;
    for (const double v : numbers(f.at("retransmits_per_interval"))) {
      r.retransmits_per_interval.push_back(integral<std::int64_t>(v, "retransmits_per_interval"));
    }
    return r;
  }
  for (const char* key : {"goodput_mbps", "sum_mbps", "out_mbps", "in_mbps"}) {
    if (f.contains(key)) return throughput_of(f);
  }
  return std::monostate{};
}

attempt_record attempt_of(const json& a) {
  attempt_record r;
  r.number = integer<int>(a, "number", 1);
  r.pass = flag(a, "pass");
  r.observed = text(a, "observed");
  r.cause = text(a, "cause");
  r.cpu_pressure_percent = number(a, "cpu_pressure_percent").value_or(0);
  r.other_cpu_percent = number(a, "other_cpu_percent").value_or(0);
  r.disturbed = flag(a, "disturbed");
  r.bench = text(a, "bench");
  r.pressure_source = text(a, "pressure_source");
  r.window_seconds = number(a, "window_seconds").value_or(0);
  return r;
}

}  // namespace

case_record from_legacy_json(const json& j) {
  case_record c;
  c.schema = 1;
  c.case_name = j.contains("case") ? text(j, "case") : "?";
  c.time = text(j, "time");
  c.started_ms = whole(j, "started_ms");
  c.recorded_ms = whole(j, "recorded_ms");
  c.board = text(j, "board");
  c.skipped = flag(j, "skipped");
  c.reason = text(j, "reason");
  if (c.skipped) return c;
  c.verdict.check = text(j, "check");
  c.verdict.pass = flag(j, "pass");
  c.verdict.observed = text(j, "observed");
  c.verdict.limit = text(j, "limit");
  c.verdict.cause = text(j, "cause");
  c.verdict.observed_value = number(j, "observed_value");
  c.verdict.limit_value = number(j, "limit_value");
  c.verdict.unit = text(j, "unit");
  c.measured = figures_of(member(j, "figures"));
  if (const auto counters = member(j, "counters"); counters.is_object()) {
    counter_record r;
    for (const auto& [key, value] : counters.items()) {
      if (value.is_number_unsigned()) r.growth.emplace_back(key, value.get<std::uint64_t>());
    }
    r.reset_seen = flag(counters, "reset_seen");
    c.counters = r;
  }
  c.attempts_summary = text(j, "attempts_summary");
  if (const auto attempts = member(j, "attempts"); attempts.is_array()) {
    for (const auto& a : attempts) c.attempts.push_back(attempt_of(a));
  }
  // Early schema 1 records counted attempts without listing them. The count is bounded before
  // the list grows to it: "attempt_count":1e12 must not allocate 10^12 attempts.
  const auto count = integer<std::size_t>(j, "attempt_count", 1);
  if (count > max_legacy_attempts) {
    throw record_error(fmt::format("attempt_count: {} is more than any run takes ({} at most)",
                                   count, max_legacy_attempts));
  }
  for (std::size_t n = c.attempts.size() + 1; count > 1 && n <= count; ++n) {
    attempt_record a;
    a.number = static_cast<int>(n);
    c.attempts.push_back(a);
  }
  return c;
}

}  // namespace hil::record
