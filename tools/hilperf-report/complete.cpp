#include "complete.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include "hil/report/completeness.hpp"

int check_complete(const std::filesystem::path& results, const std::filesystem::path& listing,
                   std::int64_t since_ms) {
  try {
    std::ifstream in(listing);
    if (!in) {
      std::cerr << "hilperf-report: cannot read the case listing " << listing << '\n';
      return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    const auto expected = hil::report::parse_gtest_listing(text.str());
    if (expected.empty()) {
      std::cerr << "hilperf-report: " << listing
                << " lists no case: the case binaries' discovery failed (see its output)\n";
      return 2;
    }
    std::vector<hil::record::case_record> records;
    std::error_code ec;
    if (std::filesystem::exists(results, ec)) records = hil::record::read_records(results);
    const auto missing = hil::report::missing_cases(expected, records, since_ms);
    if (missing.empty()) {
      std::cout << "hilperf-report: complete: all " << expected.size()
                << " cases recorded a verdict or a reason to skip\n";
      return 0;
    }
    std::cout << "hilperf-report: INCOMPLETE: " << missing.size() << " of " << expected.size()
              << " cases never ran (no verdict and no skip reason in " << results.string()
              << "): a fixture they need failed, discovery failed, or a filter or label left them "
                 "out\n";
    for (const auto& name : missing) std::cout << "  never ran: " << name << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-report: " << e.what() << '\n';
    return 2;
  }
}
