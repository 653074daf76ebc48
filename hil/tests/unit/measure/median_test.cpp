// The median every report and benchmark table uses (measure::median).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "hil/measure/sample_stats.hpp"

namespace {

using hil::measure::median;

TEST(Median, IsTheMiddleValueOfAnOddCountWhateverTheOrder) {
  EXPECT_EQ(median(std::vector<double>{3, 1, 2}), 2);
  EXPECT_EQ(median(std::vector<double>{7}), 7);
}

TEST(Median, IsTheMeanOfTheTwoMiddleValuesOfAnEvenCount) {
  EXPECT_EQ(median(std::vector<double>{4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median(std::vector<double>{-1, 1}), 0);
}

TEST(Median, OfNothingIsRefused) {
  EXPECT_THROW((void)median(std::vector<double>{}), std::invalid_argument);
}

}  // namespace
