#include "hil/record/record_file.hpp"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hil/record/record_json.hpp"
#include "hil/sys/json_depth.hpp"

namespace hil::record {

results_format_error::results_format_error(std::string_view source, std::size_t line,
                                           std::string_view problem)
    : std::runtime_error(fmt::format("{}:{}: {}", source, line, problem)), line_(line) {}

std::vector<case_record> parse_records(std::istream& in, std::string_view source) {
  std::vector<case_record> records;
  std::string text;
  for (std::size_t line = 1; std::getline(in, text); ++line) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (sys::json_too_deep(text)) {
      throw results_format_error(source, line,
                                 fmt::format("nests deeper than {} levels", sys::json_depth_limit));
    }
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
    try {
      records.push_back(from_json(j));
    } catch (const record_error& e) {
      throw results_format_error(source, line, e.what());
    }
    records.back().line = line;
  }
  if (in.bad()) {
    throw std::system_error(errno, std::generic_category(), fmt::format("cannot read {}", source));
  }
  return records;
}

std::vector<case_record> read_records(const std::filesystem::path& path) {
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
  return parse_records(in, path.string());
}

std::vector<case_record> of_board(std::vector<case_record> records, std::string_view board) {
  if (!board.empty())
    std::erase_if(records, [&](const case_record& r) { return r.board != board; });
  return records;
}

std::size_t count_failed(const std::vector<case_record>& records) {
  std::size_t failed = 0;
  for (const auto& r : records) failed += r.verdict.pass || r.skipped ? 0 : 1;
  return failed;
}

std::size_t count_not_measurable(const std::vector<case_record>& records) {
  return static_cast<std::size_t>(std::ranges::count_if(
      records, [](const case_record& r) { return r.skipped && r.not_measurable.has_value(); }));
}

std::string tally_words(const std::vector<case_record>& records) {
  std::string out = std::to_string(records.size()) + " recorded checks, " +
                    std::to_string(count_failed(records)) + " failed";
  if (const auto k = count_not_measurable(records); k > 0) {
    out += ", " + std::to_string(k) + " not measurable on this bench (skipped: not coverage)";
  }
  return out;
}

}  // namespace hil::record
