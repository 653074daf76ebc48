// The completeness check that ends every hil run: each case the profile defines either recorded a
// verdict or was skipped with a reason. A case that left no record never ran — its discovery
// failed, a filter or a label left it out, or a fixture it needs failed — and a run with such a
// case must not look green (a suite reached through a symlinked build directory once ran only its
// fixtures and printed "100% tests passed").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hil/report/results_file.hpp"

namespace hil::report {

// The full case names ("MtuTier/UdpZeroLoss.NoDatagramLost/mtu1500") in gtest's
// --gtest_list_tests output: "Suite." lines, then indented test lines, each possibly followed by
// "  # GetParam() = …". Several listings may be concatenated; lines of other output are ignored.
std::vector<std::string> parse_gtest_listing(std::string_view text);

// The expected cases without a record recorded at or after since_ms (ms since the epoch; 0 takes
// every record), in listing order.
std::vector<std::string> missing_cases(const std::vector<std::string>& expected,
                                       const std::vector<record::case_record>& records,
                                       std::int64_t since_ms);

}  // namespace hil::report
