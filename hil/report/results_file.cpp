#include "hil/report/results_file.hpp"

#include <cerrno>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

namespace hil::report {

namespace {

// The string at key, or fallback when absent; a non-string value is shown as its JSON text.
std::string string_field(const nlohmann::json& object, const char* key,
                         const std::string& fallback = {}) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  return it->is_string() ? it->get<std::string>() : it->dump();
}

result_record to_record(const nlohmann::json& j, std::size_t line) {
  result_record r;
  r.line = line;
  r.case_name = string_field(j, "case", "?");
  r.check = string_field(j, "check");
  const auto pass = j.find("pass");
  r.pass = pass != j.end() && pass->is_boolean() && pass->get<bool>();
  r.observed = string_field(j, "observed");
  r.limit = string_field(j, "limit");
  r.cause = string_field(j, "cause");
  r.time = string_field(j, "time");
  const auto recorded = j.find("recorded_ms");
  if (recorded != j.end() && recorded->is_number_integer()) {
    r.recorded_ms = recorded->get<std::int64_t>();
  }
  r.board = string_field(j, "board");
  const auto skipped = j.find("skipped");
  r.skipped = skipped != j.end() && skipped->is_boolean() && skipped->get<bool>();
  r.reason = string_field(j, "reason");
  const auto attempts = j.find("attempt_count");
  if (attempts != j.end() && attempts->is_number_integer()) r.attempts = attempts->get<int>();
  r.attempts_summary = string_field(j, "attempts_summary");
  const auto pressure = j.find("cpu_pressure_percent");
  if (pressure != j.end() && pressure->is_number())
    r.cpu_pressure_percent = pressure->get<double>();
  const auto figures = j.find("figures");
  if (figures != j.end() && figures->is_object()) r.figures = *figures;
  const auto counters = j.find("counters");
  if (counters != j.end() && counters->is_object()) r.counters = *counters;
  return r;
}

}  // namespace

results_format_error::results_format_error(std::string_view source, std::size_t line,
                                           std::string_view problem)
    : std::runtime_error(fmt::format("{}:{}: {}", source, line, problem)), line_(line) {}

std::vector<result_record> parse_results(std::istream& in, std::string_view source) {
  std::vector<result_record> records;
  std::string text;
  for (std::size_t line = 1; std::getline(in, text); ++line) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
      throw results_format_error(source, line, fmt::format("not JSON: {}", e.what()));
    }
    if (!j.is_object()) {
      throw results_format_error(source, line,
                                 fmt::format("not a result record (a JSON {})", j.type_name()));
    }
    records.push_back(to_record(j, line));
  }
  if (in.bad()) {
    throw std::system_error(errno, std::generic_category(), fmt::format("cannot read {}", source));
  }
  return records;
}

std::vector<result_record> read_results(const std::filesystem::path& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw std::system_error(
        std::make_error_code(std::errc::is_a_directory),
        fmt::format("cannot read {} (a directory, not a results file)", path.string()));
  }
  std::ifstream in(path);
  if (!in) {
    throw std::system_error(errno, std::generic_category(),
                            fmt::format("cannot read {} (did the suite run?)", path.string()));
  }
  return parse_results(in, path.string());
}

std::vector<result_record> of_board(std::vector<result_record> records, std::string_view board) {
  if (!board.empty())
    std::erase_if(records, [&](const result_record& r) { return r.board != board; });
  return records;
}

std::string verdict_word(const result_record& r) {
  if (r.skipped) return "skipped";
  std::string word = r.pass ? "pass" : "FAIL";
  if (r.attempts > 1) word += fmt::format(", attempt {}", r.attempts);
  return word;
}

std::string measured_text(const result_record& r) {
  if (r.skipped) return r.reason;
  if (r.attempts > 1 && !r.attempts_summary.empty())
    return r.observed + " (" + r.attempts_summary + ")";
  return r.observed;
}

std::size_t count_failed(const std::vector<result_record>& records) {
  std::size_t failed = 0;
  for (const auto& r : records) failed += r.pass || r.skipped ? 0 : 1;
  return failed;
}

}  // namespace hil::report
