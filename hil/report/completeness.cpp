#include "hil/report/completeness.hpp"

#include <set>

namespace hil::report {

std::vector<std::string> parse_gtest_listing(std::string_view text) {
  std::vector<std::string> out;
  std::string suite;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto comment = line.find("  #");
    if (comment != std::string_view::npos) line = line.substr(0, comment);
    while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.substr(0, 2) == "  " && line.find_first_not_of(' ') == 2) {
      const std::string_view test = line.substr(2);
      if (!suite.empty() && test.find(' ') == std::string_view::npos) {
        out.push_back(suite + std::string(test));
      }
    } else if (line.front() != ' ' && line.back() == '.' &&
               line.find(' ') == std::string_view::npos) {
      suite = std::string(line);  // "MtuTier/UdpZeroLoss."
    } else {
      suite.clear();  // other output between listings
    }
  }
  return out;
}

std::vector<std::string> missing_cases(const std::vector<std::string>& expected,
                                       const std::vector<record::case_record>& records,
                                       std::int64_t since_ms) {
  std::set<std::string> seen;
  for (const auto& r : records) {
    if (r.recorded_ms >= since_ms) seen.insert(r.case_name);
  }
  std::vector<std::string> out;
  for (const auto& name : expected) {
    if (seen.count(name) == 0) out.push_back(name);
  }
  return out;
}

}  // namespace hil::report
