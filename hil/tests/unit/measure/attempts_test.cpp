// The attempt rule: a failure on a quiet bench is final at once, a failure on a disturbed bench
// measures again while attempts are left, and the final verdict and summary say what happened.
#include "hil/measure/attempts.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using hil::measure::attempt;
using ::testing::HasSubstr;

attempt make(int number, bool pass, bool disturbed, double pressure = 0.5) {
  attempt a;
  a.number = number;
  a.result.pass = pass;
  a.result.check = "TcpThroughput DutTransmits";
  a.result.observed = pass ? "950.0 Mbit/s" : "805.0 Mbit/s";
  a.result.limit = ">= 940.0 Mbit/s";
  a.result.cause = pass ? "" : "link not negotiated at full speed";
  a.cpu_pressure_percent = pressure;
  a.disturbed = disturbed;
  a.bench = disturbed ? "31.0 % CPU pressure over 2.0 s (psi); busiest other processes: cc1plus "
                        "1.70 s"
                      : "0.5 % CPU pressure over 2.0 s (psi); no other process used the CPU";
  return a;
}

TEST(AttemptRule, AFailureOnAQuietBenchIsFinal) {
  EXPECT_FALSE(hil::measure::measure_again({make(1, false, false)}, 3));
}

TEST(AttemptRule, APassIsFinal) {
  EXPECT_FALSE(hil::measure::measure_again({make(1, true, true, 40)}, 3));
}

TEST(AttemptRule, AFailureOnADisturbedBenchMeasuresAgainUntilNoneAreLeft) {
  EXPECT_TRUE(hil::measure::measure_again({make(1, false, true, 31)}, 3));
  EXPECT_TRUE(hil::measure::measure_again({make(1, false, true, 31), make(2, false, true, 31)}, 3));
  EXPECT_FALSE(hil::measure::measure_again(
      {make(1, false, true, 31), make(2, false, true, 31), make(3, false, true, 31)}, 3));
  EXPECT_FALSE(hil::measure::measure_again({make(1, false, true, 31)}, 1)) << "max_attempts 1";
}

TEST(AttemptVerdict, PassedOnAttemptTwoKeepsThePassAndTellsTheHistory) {
  const std::vector<attempt> a{make(1, false, true, 31), make(2, true, false)};
  EXPECT_TRUE(hil::measure::final_verdict(a).pass);
  EXPECT_EQ(hil::measure::attempts_summary(a),
            "passed on attempt 2; attempt 1 failed disturbed: 31.0 % CPU pressure over 2.0 s "
            "(psi); busiest other processes: cc1plus 1.70 s");
}

TEST(AttemptVerdict, AQuietFailureAfterADisturbedOneKeepsTheChecksOwnCause) {
  const std::vector<attempt> a{make(1, false, true, 31), make(2, false, false)};
  const auto v = hil::measure::final_verdict(a);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.cause, "link not negotiated at full speed");
}

TEST(AttemptVerdict, EveryAttemptDisturbedFailsWithTheBusyBenchCause) {
  const std::vector<attempt> a{make(1, false, true, 31), make(2, false, true, 31),
                               make(3, false, true, 31)};
  const auto v = hil::measure::final_verdict(a);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.cause, HasSubstr("the bench was busy during every attempt (attempt 1: 31.0 %"));
  EXPECT_THAT(v.cause, HasSubstr("attempt 3: 31.0 %"));
  EXPECT_THAT(v.cause, HasSubstr("cc1plus"));
  EXPECT_THAT(v.cause, HasSubstr("link not negotiated at full speed")) << "the check's own cause";
  EXPECT_THAT(v.message(), HasSubstr("measured 805.0 Mbit/s, limit >= 940.0 Mbit/s"));
}

TEST(AttemptVerdict, OneQuietAttemptSummary) {
  EXPECT_EQ(hil::measure::attempts_summary({make(1, true, false, 0.4)}),
            "1 attempt, quiet (0.4 % CPU pressure, other processes 0 % of a core)");
}

TEST(AttemptRule, EitherFigureAboveItsLimitIsADisturbance) {
  EXPECT_FALSE(hil::measure::is_disturbed(5, 10, 20, 20));
  EXPECT_TRUE(hil::measure::is_disturbed(25, 0, 20, 20)) << "pressure";
  EXPECT_TRUE(hil::measure::is_disturbed(1, 99, 20, 20))
      << "a busy loop on the other core: little pressure, a whole core of CPU";
}

}  // namespace
