// Helpers shared by the profile's unit tests: the smallest valid profile, the problems a text
// yields, and a fixture that clears the environment variables the profile reads.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "hil/profile/profile.hpp"
#include "hil/tests/cleared_env.hpp"

namespace hil::profile {

inline const std::filesystem::path boards_dir =
    std::filesystem::path(HIL_SOURCE_DIR) / "ci" / "boards";

// The smallest valid profile: the required keys of an external bench.
constexpr std::string_view minimal = R"([dut]
ipv4 = "192.168.1.10/24"
[peer]
mode = "external"
ipv4 = "192.168.1.195"
)";

// The problems parse_profile reports for text; fails the test when it accepts the text.
inline std::vector<problem> problems_of(std::string_view text) {
  try {
    (void)parse_profile(text, "test.toml");
  } catch (const profile_error& error) {
    return error.problems();
  }
  ADD_FAILURE() << "profile was accepted:\n" << text;
  return {};
}

// The one problem parse_profile reports for text (fails the test when there are more or none).
inline problem only_problem(std::string_view text) {
  const std::vector<problem> problems = problems_of(text);
  EXPECT_EQ(problems.size(), 1U);
  if (problems.size() != 1) {
    for (const problem& p : problems) ADD_FAILURE() << p.key << ":" << p.line << ": " << p.message;
  }
  return problems.empty() ? problem{} : problems.front();
}

// The minimal profile with extra text appended (the lines of minimal are 1-5).
inline std::string minimal_with(std::string_view extra) {
  return std::string(minimal) + std::string(extra);
}

inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Clears HILPERF_PROFILE and HILPERF_DURATIONS for each test and restores them afterwards, so a
// CI job that sets them does not change what these tests see.
class ProfileEnv : public ::testing::Test {
 private:
  hil::test::cleared_env environment_{"HILPERF_PROFILE", "HILPERF_DURATIONS"};
};

}  // namespace hil::profile
