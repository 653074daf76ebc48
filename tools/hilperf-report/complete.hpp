// hilperf-report --complete LISTING: the completeness check that ends every hil run
// (hil/report/completeness.hpp). LISTING is the cases' --gtest_list_tests output (both case
// binaries, concatenated); only records recorded at or after since_ms count, so a results file
// that still holds an earlier run's lines cannot make this run look complete.
#pragma once

#include <cstdint>
#include <filesystem>

// Exit codes: 0 every listed case left a record, 1 some did not (named on stdout), 2 bad input
// (unreadable files, an empty listing).
int check_complete(const std::filesystem::path& results, const std::filesystem::path& listing,
                   std::int64_t since_ms);
