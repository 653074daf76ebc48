#include "hil/record/record_json.hpp"

#include "hil/record/figures_json.hpp"
#include "hil/record/json_reader.hpp"

namespace hil::record {
namespace {

using json = nlohmann::json;
using detail::object_reader;
using detail::rounded;

std::string_view bound_name(measure::bound b) {
  switch (b) {
    case measure::bound::at_least:
      return "at_least";
    case measure::bound::at_most:
      return "at_most";
    case measure::bound::none:
      break;
  }
  return "none";
}

measure::bound bound_of(const std::string& name) {
  if (name == "at_least") return measure::bound::at_least;
  if (name == "at_most") return measure::bound::at_most;
  if (name == "none") return measure::bound::none;
  throw record_error("bound: \"" + name + "\", expected at_least, at_most or none");
}

json attempt_json(const attempt_record& a) {
  json busiest = json::array();
  for (const auto& b : a.busiest) {
    busiest.push_back({{"name", b.name},
                       {"pid", b.pid},
                       {"kernel_thread", b.kernel_thread},
                       {"cpu_seconds", rounded(b.cpu_seconds, 2)}});
  }
  return {{"number", a.number},
          {"pass", a.pass},
          {"observed", a.observed},
          {"cause", a.cause},
          {"cpu_pressure_percent", rounded(a.cpu_pressure_percent, 1)},
          {"other_cpu_percent", rounded(a.other_cpu_percent, 0)},
          {"disturbed", a.disturbed},
          {"bench", a.bench},
          {"pressure_source", a.pressure_source},
          {"window_seconds", rounded(a.window_seconds, 2)},
          {"others_cpu_seconds", rounded(a.others_cpu_seconds, 2)},
          {"bench_cpu_seconds", rounded(a.bench_cpu_seconds, 2)},
          {"busiest", busiest}};
}

attempt_record attempt_of(const json& j, const std::string& path) {
  const object_reader r(j, path);
  attempt_record a;
  a.number = r.get<int>("number");
  a.pass = r.get<bool>("pass");
  a.observed = r.get<std::string>("observed");
  a.cause = r.get<std::string>("cause");
  a.cpu_pressure_percent = r.get<double>("cpu_pressure_percent");
  a.other_cpu_percent = r.get<double>("other_cpu_percent");
  a.disturbed = r.get<bool>("disturbed");
  a.bench = r.get<std::string>("bench");
  a.pressure_source = r.get_or<std::string>("pressure_source", "");
  a.window_seconds = r.get_or<double>("window_seconds", 0);
  a.others_cpu_seconds = r.get_or<double>("others_cpu_seconds", 0);
  a.bench_cpu_seconds = r.get_or<double>("bench_cpu_seconds", 0);
  if (const json* busiest = r.find("busiest")) {
    if (!busiest->is_array()) object_reader::fail_at(r.name("busiest"), *busiest, "an array");
    for (std::size_t i = 0; i < busiest->size(); ++i) {
      const object_reader b((*busiest)[i], r.name("busiest") + "[" + std::to_string(i) + "]");
      a.busiest.push_back({b.get<std::string>("name"), b.get<int>("pid"),
                           b.get<bool>("kernel_thread"), b.get<double>("cpu_seconds")});
    }
  }
  return a;
}

json counters_json(const counter_record& c) {
  json j = json::object();
  for (const auto& [name, growth] : c.growth) j[name] = growth;
  j["reset_seen"] = c.reset_seen;
  j["errors"] = c.errors;
  return j;
}

counter_record counters_of(const json& j) {
  const object_reader r(j, "counters");
  counter_record c;
  for (const auto& [key, value] : j.items()) {
    if (key == "reset_seen" || key == "errors") continue;
    c.growth.emplace_back(key, object_reader::as<std::uint64_t>(value, "counters." + key));
  }
  c.reset_seen = r.get<bool>("reset_seen");
  c.errors = r.get_or<std::string>("errors", "");
  return c;
}

json cpu_json(const cpu_record& c) {
  json j{{"dut_percent", rounded(c.dut_percent, 1)},
         {"dut_user_percent", rounded(c.dut_user_percent, 1)},
         {"dut_system_percent", rounded(c.dut_system_percent, 1)},
         {"peer_percent", rounded(c.peer_percent, 1)}};
  if (c.dut_thread_on_cpu_percent) {
    j["dut_thread_on_cpu_percent"] = rounded(*c.dut_thread_on_cpu_percent, 1);
  }
  if (c.dut_thread_waiting_percent) {
    j["dut_thread_waiting_percent"] = rounded(*c.dut_thread_waiting_percent, 1);
  }
  return j;
}

cpu_record cpu_of(const json& j) {
  const object_reader r(j, "cpu");
  cpu_record c;
  c.dut_percent = r.get<double>("dut_percent");
  c.dut_user_percent = r.get_or<double>("dut_user_percent", 0);
  c.dut_system_percent = r.get_or<double>("dut_system_percent", 0);
  c.peer_percent = r.get<double>("peer_percent");
  c.dut_thread_on_cpu_percent = r.optional<double>("dut_thread_on_cpu_percent");
  c.dut_thread_waiting_percent = r.optional<double>("dut_thread_waiting_percent");
  return c;
}

// The verdict's fields, at the top level of the line (where schema 1 had them too).
void put_verdict(const verdict_record& v, json& j) {
  j.update({{"check", v.check},
            {"pass", v.pass},
            {"observed", v.observed},
            {"limit", v.limit},
            {"cause", v.cause},
            {"unit", v.unit},
            {"bound", std::string(bound_name(v.bound))}});
  // 0.001 of the unit: finer than any figure is measured, and readable in the JUnit.
  if (v.observed_value) j["observed_value"] = rounded(*v.observed_value, 3);
  if (v.limit_value) j["limit_value"] = rounded(*v.limit_value, 3);
  if (const auto m = v.margin()) j["margin"] = rounded(*m, 3);
}

verdict_record verdict_of(const object_reader& r) {
  verdict_record v;
  v.check = r.get<std::string>("check");
  v.pass = r.get<bool>("pass");
  v.observed = r.get<std::string>("observed");
  v.limit = r.get<std::string>("limit");
  v.cause = r.get<std::string>("cause");
  v.unit = r.get_or<std::string>("unit", "");
  v.bound = bound_of(r.get_or<std::string>("bound", "none"));
  v.observed_value = r.optional<double>("observed_value");
  v.limit_value = r.optional<double>("limit_value");
  return v;
}

// A JUnit property's text for a JSON value: strings as they are, the rest in JSON spelling.
std::string property_text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace

json to_json(const case_record& r) {
  json j{{"schema", schema_version},
         {"case", r.case_name},
         {"kind", std::string(kind_name(r.measured))}};
  if (r.skipped) {
    j.update({{"skipped", true}, {"reason", r.reason}});
    if (r.not_measurable) {
      j["not_measurable"] = {{"ceiling_fps", rounded(r.not_measurable->ceiling_fps, 0)},
                             {"required_fps", rounded(r.not_measurable->required_fps, 0)},
                             {"end", measure::tester_end_name(r.not_measurable->end)}};
    }
  } else {
    put_verdict(r.verdict, j);
    j["figures"] = detail::figures_to_json(r.measured);
    if (r.counters) j["counters"] = counters_json(*r.counters);
    if (r.cpu) j["cpu"] = cpu_json(*r.cpu);
    j["attempt_count"] = r.attempt_count();
    if (!r.attempts.empty()) {
      j["attempts_summary"] = r.attempts_summary;
      j["cpu_pressure_percent"] = rounded(*r.cpu_pressure_percent(), 1);
      j["other_cpu_percent"] = rounded(*r.other_cpu_percent(), 0);
      json attempts = json::array();
      for (const auto& a : r.attempts) attempts.push_back(attempt_json(a));
      j["attempts"] = attempts;
    }
  }
  j["time"] = r.time;
  if (r.started_ms != 0) j["started_ms"] = r.started_ms;
  j["recorded_ms"] = r.recorded_ms;
  if (!r.board.empty()) j["board"] = r.board;
  return j;
}

case_record from_json(const json& j) {
  const object_reader r(j, "");
  if (r.find("schema") == nullptr) return from_legacy_json(j);
  case_record c;
  c.schema = r.get<int>("schema");
  if (c.schema != schema_version) {
    throw record_error("schema " + std::to_string(c.schema) + ": this hilperf reads schema " +
                       std::to_string(schema_version) +
                       " (and the schema-less records of earlier versions); a newer hilperf-report "
                       "reads it");
  }
  c.case_name = r.get<std::string>("case");
  c.time = r.get_or<std::string>("time", "");
  c.started_ms = r.get_or<std::int64_t>("started_ms", 0);
  c.recorded_ms = r.get_or<std::int64_t>("recorded_ms", 0);
  c.board = r.get_or<std::string>("board", "");
  c.skipped = r.get_or<bool>("skipped", false);
  const auto kind = r.get<std::string>("kind");
  if (c.skipped) {
    c.reason = r.get<std::string>("reason");
    if (const json* n = r.find("not_measurable")) {
      const object_reader ceiling(*n, "not_measurable");
      c.not_measurable = measure::tester_ceiling{ceiling.get<double>("ceiling_fps"),
                                                 ceiling.get<double>("required_fps")};
      // "sender" when absent: records from before the receiver's ceiling.
      if (const auto end = ceiling.get_or<std::string>("end", "sender");
          !measure::parse_tester_end(end, c.not_measurable->end)) {
        throw record_error(ceiling.name("end") + ": \"" + end +
                           "\" is neither \"sender\" nor \"receiver\"");
      }
    }
    return c;
  }
  c.verdict = verdict_of(r);
  c.measured = detail::figures_from_json(kind, r.find("figures"));
  if (const json* counters = r.find("counters")) c.counters = counters_of(*counters);
  if (const json* cpu = r.find("cpu")) c.cpu = cpu_of(*cpu);
  c.attempts_summary = r.get_or<std::string>("attempts_summary", "");
  if (const json* attempts = r.find("attempts")) {
    if (!attempts->is_array()) object_reader::fail_at("attempts", *attempts, "an array");
    for (std::size_t i = 0; i < attempts->size(); ++i) {
      c.attempts.push_back(attempt_of((*attempts)[i], "attempts[" + std::to_string(i) + "]"));
    }
  }
  return c;
}

std::vector<std::pair<std::string, std::string>> junit_properties(const json& j) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* key :
       {"kind", "board", "observed", "limit", "unit", "observed_value", "limit_value", "bound",
        "margin", "attempt_count", "attempts_summary", "cpu_pressure_percent", "other_cpu_percent",
        "reason", "not_measurable"}) {
    const auto it = j.find(key);
    if (it != j.end()) out.emplace_back(key, property_text(*it));
  }
  if (const auto f = j.find("figures"); f != j.end()) {
    for (const auto& [key, value] : f->items()) out.emplace_back(key, property_text(value));
  }
  if (const auto c = j.find("counters"); c != j.end()) {
    for (const auto& [key, value] : c->items()) {
      if (key == "errors") continue;
      out.emplace_back("counter_" + key, property_text(value));
    }
    const auto errors = c->find("errors");
    const std::string text =
        errors != c->end() && errors->is_string() ? errors->get<std::string>() : std::string();
    out.emplace_back("counter_errors", text.empty() ? "none" : text);
  }
  if (const auto c = j.find("cpu"); c != j.end() && c->is_object()) {
    for (const auto& [key, value] : c->items())
      out.emplace_back("cpu_" + key, property_text(value));
  }
  return out;
}

}  // namespace hil::record
