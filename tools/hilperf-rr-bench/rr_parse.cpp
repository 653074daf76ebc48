#include "rr_parse.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <regex>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>
#include "hil/sys/json_depth.hpp"

namespace hil::rr_bench_tool {
namespace {

// The lines of text, without their line ends.
std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string line(text.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

std::string trimmed(std::string s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

// The last few lines of a tool's output, for an error message.
std::string tail_of(std::string_view text) {
  const auto lines = lines_of(text);
  std::string out;
  const std::size_t from = lines.size() > 4 ? lines.size() - 4 : 0;
  for (std::size_t i = from; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    if (!out.empty()) out += " | ";
    out += lines[i];
  }
  return out.empty() ? "(no output)" : out;
}

// A number a regex matched ([0-9.]+ also matches "." and "1.2.3"), read whole; std::stod would
// throw std::invalid_argument or std::out_of_range, which the contract does not name (found by
// fuzz/rr_parse.cpp).
double number(const std::string& text, std::string_view what) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw std::runtime_error(std::string(what) + " '" + text + "' is no number");
  }
  return v;
}

// A count as number() reads a number.
std::uint64_t count(const std::string& text, std::string_view what) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw std::runtime_error(std::string(what) + " '" + text + "' is no count");
  }
  return v;
}

// j[key] as a number; nlohmann's get<double>() would read true as 1.
double json_number(const nlohmann::json& j, const char* key) {
  const auto& v = j.at(key);
  if (!v.is_number()) throw std::runtime_error(std::string("\"") + key + "\" is no number");
  return v.get<double>();
}

// j[key] as a count: get<std::uint64_t>() of a fraction or of 1e300 would cast a double, which
// out of range is undefined behaviour (a UBSan report in fuzz/rr_parse.cpp).
std::uint64_t json_count(const nlohmann::json& j, const char* key) {
  const auto& v = j.at(key);
  if (!v.is_number_unsigned()) throw std::runtime_error(std::string("\"") + key + "\" is no count");
  return v.get<std::uint64_t>();
}

}  // namespace

std::string strip_ansi(std::string_view text) {
  static const std::regex colour("\x1b\\[[0-9;]*m");
  return std::regex_replace(std::string(text), colour, "");
}

rr_sample parse_hilperf_json(std::string_view output) {
  const auto open = output.find('{');
  const auto close = output.rfind('}');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    throw std::runtime_error("hilperf printed no JSON: " + tail_of(output));
  }
  const auto text = output.substr(open, close - open + 1);
  if (hil::sys::json_too_deep(text)) throw std::runtime_error("hilperf's JSON nests too deeply");
  try {
    const auto j = nlohmann::json::parse(text);
    const auto& lat = j.at("latency_us");
    rr_sample s;
    s.transactions_per_second = json_number(j, "transactions_per_second");
    s.p50_us = json_number(lat, "p50");
    s.p90_us = json_number(lat, "p90");
    s.p99_us = json_number(lat, "p99");
    s.lost = json_count(j, "lost");
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("hilperf's JSON is not an RR result: ") + e.what());
  }
}

rr_sample parse_sockperf(std::string_view output) {
  static const std::regex valid(
      R"(sockperf: \[Valid Duration\] RunTime=([0-9.]+) sec; SentMessages=([0-9]+); )"
      R"(ReceivedMessages=([0-9]+))");
  static const std::regex percentile(R"(sockperf: ---> percentile +([0-9.]+) = +([0-9.]+))");
  static const std::regex dropped(R"(# dropped messages = ([0-9]+))");
  const std::string text = strip_ansi(output);
  std::smatch m;
  if (!std::regex_search(text, m, valid)) {
    throw std::runtime_error("sockperf printed no [Valid Duration] line: " + tail_of(text));
  }
  const double run_time = number(m[1], "sockperf's RunTime");
  const double received = number(m[3], "sockperf's ReceivedMessages");
  if (run_time <= 0) throw std::runtime_error("sockperf measured for 0 s: " + m.str());
  // Without --full-rtt every figure would be one way (RTT / 2).
  if (text.find("avg-rtt=") == std::string::npos) {
    throw std::runtime_error("sockperf did not report round trips (--full-rtt missing?)");
  }
  std::map<std::string, double> pct;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), percentile);
       it != std::sregex_iterator(); ++it) {
    pct[(*it)[1]] = number((*it)[2], "sockperf's percentile");
  }
  for (const char* key : {"50.000", "90.000", "99.000"}) {
    if (!pct.contains(key)) {
      throw std::runtime_error(std::string("sockperf printed no percentile ") + key);
    }
  }
  rr_sample s;
  s.transactions_per_second = received / run_time;
  s.p50_us = pct["50.000"];
  s.p90_us = pct["90.000"];
  s.p99_us = pct["99.000"];
  if (std::regex_search(text, m, dropped)) s.lost = count(m[1], "sockperf's dropped messages");
  return s;
}

rr_sample parse_netperf(std::string_view output) {
  static const std::regex csv(
      R"((-?[0-9.]+),(-?[0-9.]+),(-?[0-9]+),(-?[0-9]+),(-?[0-9]+),(-?[0-9]+))");
  std::string last;
  for (const auto& line : lines_of(output)) {
    if (!trimmed(line).empty()) last = trimmed(line);
  }
  std::smatch m;
  if (!std::regex_match(last, m, csv)) {
    // netperf prints its errors on stdout too.
    throw std::runtime_error("netperf printed no result line: " + tail_of(output));
  }
  rr_sample s;
  s.transactions_per_second = number(m[1], "netperf's THROUGHPUT");
  s.p50_us = number(m[3], "netperf's P50_LATENCY");
  s.p90_us = number(m[4], "netperf's P90_LATENCY");
  s.p99_us = number(m[5], "netperf's P99_LATENCY");
  if (s.transactions_per_second <= 0) {
    throw std::runtime_error("netperf measured no transactions: " + last);
  }
  return s;
}

std::string version_line(std::string_view text) {
  std::string first;
  for (const auto& line : lines_of(strip_ansi(text))) {
    if (line.find("version") != std::string::npos) return trimmed(line);
    if (first.empty()) first = trimmed(line);
  }
  return first;
}

}  // namespace hil::rr_bench_tool
