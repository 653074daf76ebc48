// Student-t critical values against textbook tables, and summarize_samples on netperf iteration
// results. Expected statistics were computed independently with python3/mpmath (30 digits):
// statistics of the values, and t from mpmath.betainc solved with findroot.
#include "hil/measure/sample_stats.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

namespace {

using hil::measure::sample_stats;
using hil::measure::student_t_critical;
using hil::measure::summarize_samples;

struct t_row {
  double level;
  int dof;
  double t;
};

TEST(SampleStats, CriticalValuesMatchTextbookTables) {
  const std::vector<t_row> table{
      {0.95, 9, 2.262157},   {0.99, 4, 4.604095},    {0.99, 19, 2.860935}, {0.95, 1, 12.706205},
      {0.99, 1, 63.656741},  {0.999, 1, 636.619249}, {0.95, 19, 2.093024}, {0.95, 30, 2.042272},
      {0.99, 120, 2.617421}, {0.90, 2, 2.919986},    {0.50, 1, 1.000000},  {0.50, 3, 0.764892},
  };
  for (const auto& row : table) {
    EXPECT_NEAR(student_t_critical(row.level, row.dof), row.t, 1e-5)
        << "level " << row.level << ", dof " << row.dof;
  }
}

TEST(SampleStats, LargeDofApproachesTheNormalQuantile) {
  EXPECT_NEAR(student_t_critical(0.95, 1000), 1.962339, 1e-5);
  EXPECT_NEAR(student_t_critical(0.95, 1'000'000), 1.959966, 1e-5);
  EXPECT_NEAR(student_t_critical(0.99, 1'000'000), 2.575834, 1e-5);
  EXPECT_NEAR(student_t_critical(0.95, 100'000'000), 1.959964, 1e-5);  // z(0.975)
  EXPECT_NEAR(student_t_critical(0.99, 100'000'000), 2.575829, 1e-5);  // z(0.995)
}

TEST(SampleStats, CriticalValueFallsWithDofAndGrowsWithLevel) {
  for (int dof = 1; dof < 200; ++dof) {
    EXPECT_GT(student_t_critical(0.99, dof), student_t_critical(0.99, dof + 1)) << dof;
    EXPECT_GT(student_t_critical(0.99, dof), student_t_critical(0.95, dof)) << dof;
  }
}

// netperf TCP_RR, 20 iterations (transactions/s) from a real board's results table.
TEST(SampleStats, NetperfTcpRrIterationsMeetNinetyNineFive) {
  const std::vector<double> rr{256, 257, 256, 257, 256, 256, 257, 258, 256, 256,
                               255, 258, 256, 258, 256, 258, 256, 251, 256, 258};
  const sample_stats s = summarize_samples(rr, 0.99);
  EXPECT_EQ(s.n, 20U);
  EXPECT_DOUBLE_EQ(s.mean, 256.35);
  EXPECT_NEAR(s.stddev, 1.56524758424985, 1e-12);
  EXPECT_EQ(s.min, 251.0);
  EXPECT_EQ(s.max, 258.0);
  EXPECT_EQ(s.confidence_level, 0.99);
  EXPECT_NEAR(s.ci_half_width, 1.00132711226274, 1e-8);
  EXPECT_NEAR(s.ci_width_percent(), 0.781218734, 1e-8);
  EXPECT_TRUE(s.confidence_met(5.0));  // netperf -I 99,5
  EXPECT_FALSE(s.confidence_met(0.5));

  EXPECT_NEAR(summarize_samples(rr, 0.95).ci_half_width, 0.732558419042908, 1e-8);
}

TEST(SampleStats, NoisyIterationsMissTheConfidence) {
  const std::vector<double> noisy{100, 130, 85, 120, 95};
  const sample_stats s = summarize_samples(noisy, 0.99);
  EXPECT_DOUBLE_EQ(s.mean, 106.0);
  EXPECT_NEAR(s.stddev, 18.5067555233217, 1e-10);
  EXPECT_NEAR(s.ci_half_width, 38.1056654125184, 1e-7);
  EXPECT_NEAR(s.ci_width_percent(), 71.89748191, 1e-6);
  EXPECT_FALSE(s.confidence_met(5.0));
  EXPECT_TRUE(s.confidence_met(80.0));
}

TEST(SampleStats, SingleValueHasNoInterval) {
  const std::vector<double> one{42.0};
  const sample_stats s = summarize_samples(one, 0.99);
  EXPECT_EQ(s.n, 1U);
  EXPECT_EQ(s.mean, 42.0);
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.min, 42.0);
  EXPECT_EQ(s.max, 42.0);
  EXPECT_EQ(s.ci_half_width, 0.0);
  EXPECT_FALSE(s.confidence_met(5.0));  // one iteration proves nothing
}

TEST(SampleStats, ZeroMeanWidthPercent) {
  const std::vector<double> zeros{0.0, 0.0, 0.0};
  EXPECT_EQ(summarize_samples(zeros, 0.99).ci_width_percent(), 0.0);
  EXPECT_TRUE(summarize_samples(zeros, 0.99).confidence_met(5.0));
  const std::vector<double> symmetric{-1.0, 1.0};
  EXPECT_EQ(summarize_samples(symmetric, 0.99).ci_width_percent(),
            std::numeric_limits<double>::infinity());
  EXPECT_FALSE(summarize_samples(symmetric, 0.99).confidence_met(5.0));
}

TEST(SampleStats, InvalidInputThrows) {
  const std::vector<double> empty;
  const std::vector<double> good{1.0, 2.0};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(summarize_samples(empty, 0.99), std::invalid_argument);
  EXPECT_THROW(summarize_samples(std::vector<double>{1.0, nan}, 0.99), std::invalid_argument);
  EXPECT_THROW(summarize_samples(std::vector<double>{inf, 1.0}, 0.99), std::invalid_argument);
  for (const double level : {0.0, 1.0, 1.5, -0.5, 99.0, nan}) {
    EXPECT_THROW(summarize_samples(good, level), std::invalid_argument) << level;
    EXPECT_THROW(student_t_critical(level, 5), std::invalid_argument) << level;
  }
  EXPECT_THROW(student_t_critical(0.95, 0), std::invalid_argument);
  EXPECT_THROW(student_t_critical(0.95, -3), std::invalid_argument);
}

}  // namespace
