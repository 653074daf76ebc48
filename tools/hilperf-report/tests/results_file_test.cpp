#include "hil/report/results_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <system_error>

#include "report_data.hpp"

namespace hil::report {
namespace {

using ::testing::HasSubstr;

TEST(ResultsFile, ReadsEveryRecordOfTheRecordedRun) {
  const auto records = test::recorded_results();
  ASSERT_EQ(records.size(), 15U);
  EXPECT_EQ(records[0].case_name, "Link.LinkState");
  EXPECT_EQ(records[0].line, 1U);
  EXPECT_TRUE(records[0].pass);
  EXPECT_EQ(records[3].case_name, "Direction/TcpThroughput.MeetsLimit/DutReceives");
  EXPECT_FALSE(records[3].pass);
  EXPECT_EQ(records[3].counters.at("rx_dropped"), 17);
  EXPECT_EQ(count_failed(records), 2U);
}

TEST(ResultsFile, MissingKeysTakeDefaultsAndBlankLinesAreSkipped) {
  const auto records =
      test::records_of("\n{\"case\":\"A.B\"}\n   \n{\"pass\":true,\"figures\":[1]}\n");
  ASSERT_EQ(records.size(), 2U);
  EXPECT_EQ(records[0].line, 2U);
  EXPECT_FALSE(records[0].pass);  // no verdict recorded: not a pass
  EXPECT_TRUE(records[0].figures.is_object());
  EXPECT_EQ(records[1].case_name, "?");
  EXPECT_TRUE(records[1].figures.empty());  // figures that are not an object are ignored
}

TEST(ResultsFile, LineThatIsNotJsonIsNamedWithFileAndLine) {
  try {
    (void)read_results(std::string(HIL_REPORT_DATA_DIR) + "/bad-line.jsonl");
    FAIL() << "expected results_format_error";
  } catch (const results_format_error& e) {
    EXPECT_EQ(e.line(), 3U);
    EXPECT_THAT(e.what(), HasSubstr("bad-line.jsonl:3: not JSON"));
  }
}

TEST(ResultsFile, JsonThatIsNotAnObjectIsRejected) {
  try {
    (void)test::records_of("{\"case\":\"A.B\"}\n[1,2]\n");
    FAIL() << "expected results_format_error";
  } catch (const results_format_error& e) {
    EXPECT_STREQ(e.what(), "inline:2: not a result record (a JSON array)");
  }
}

TEST(ResultsFile, UnreadableFileSaysWhichAndWhy) {
  try {
    (void)read_results("/nonexistent/hil-results.jsonl");
    FAIL() << "expected std::system_error";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    EXPECT_THAT(e.what(), HasSubstr("cannot read /nonexistent/hil-results.jsonl"));
  }
}

}  // namespace
}  // namespace hil::report
