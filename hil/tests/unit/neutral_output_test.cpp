// hil::test::run_neutral: a nested gtest's skip marker never reaches CTest's skip regex, neither
// in the output of a command that finished nor in the exception of one that overran its bound.
#include "hil/tests/neutral_output.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <system_error>

namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(NeutralOutput, RewritesTheSkipMarkerOfAFinishedCommand) {
  const auto r = hil::test::run_neutral({"sh", "-c", "echo '[  SKIPPED ] A.B'"}, 10s);
  EXPECT_EQ(r.output, "[ skipped ] A.B\n");
}

TEST(NeutralOutput, RewritesTheSkipMarkerQuotedByATimeout) {
  try {
    (void)hil::test::run_neutral({"sh", "-c", "echo '[  SKIPPED ] A.B'; exec sleep 10"}, 300ms);
    FAIL() << "a command overrunning its bound must throw";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::timed_out);
    EXPECT_THAT(e.what(), HasSubstr("[ skipped ] A.B"));
    EXPECT_THAT(e.what(), Not(HasSubstr("[  SKIPPED ]")));
  }
}

}  // namespace
