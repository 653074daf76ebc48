#include "hil/report/results_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <system_error>

#include "report_data.hpp"

namespace hil::report {
namespace {

using ::testing::HasSubstr;

// The value of one counter field in a record's counters; -1 when absent.
long long counter(const record::case_record& r, const std::string& field) {
  if (!r.counters) return -1;
  for (const auto& [name, growth] : r.counters->growth) {
    if (name == field) return static_cast<long long>(growth);
  }
  return -1;
}

// data/hil-results.jsonl was written by hilperf before typed records (schema 1): still read.
TEST(ResultsFile, ReadsEveryRecordOfTheRecordedRun) {
  const auto records = test::recorded_results();
  ASSERT_EQ(records.size(), 15U);
  EXPECT_EQ(records[0].case_name, "Link.LinkState");
  EXPECT_EQ(records[0].line, 1U);
  EXPECT_TRUE(records[0].verdict.pass);
  EXPECT_EQ(records[0].schema, 1);
  EXPECT_EQ(records[3].case_name, "Direction/TcpThroughput.MeetsLimit/DutReceives");
  EXPECT_FALSE(records[3].verdict.pass);
  EXPECT_EQ(counter(records[3], "rx_dropped"), 17);
  EXPECT_EQ(record::count_failed(records), 2U);
  const auto* goodput = records[2].figures_as<record::throughput_figures>();
  ASSERT_NE(goodput, nullptr) << "goodput_mbps, written as a string then, is read as a number";
  EXPECT_DOUBLE_EQ(goodput->goodput_mbps, 941.2);
  const auto* tier = records[5].figures_as<record::udp_tier_figures>();
  ASSERT_NE(tier, nullptr);
  EXPECT_EQ(tier->mtu, 1500);
  const auto* counts = records[7].figures_as<record::datagram_count_figures>();
  ASSERT_NE(counts, nullptr);
  ASSERT_EQ(counts->tiers.size(), 3U);
  EXPECT_EQ(counts->tiers[0].mtu, 576) << "tiers in rising MTU";
  EXPECT_NE(records[8].figures_as<record::netperf_figures>(), nullptr);
  EXPECT_NE(records[14].figures_as<record::latency_under_load_figures>(), nullptr);
}

TEST(ResultsFile, MissingKeysTakeDefaultsAndBlankLinesAreSkipped) {
  const auto records =
      test::records_of("\n{\"case\":\"A.B\"}\n   \n{\"pass\":true,\"figures\":[1]}\n");
  ASSERT_EQ(records.size(), 2U);
  EXPECT_EQ(records[0].line, 2U);
  EXPECT_FALSE(records[0].verdict.pass);  // no verdict recorded: not a pass
  EXPECT_TRUE(std::holds_alternative<std::monostate>(records[0].measured));
  EXPECT_EQ(records[1].case_name, "?");
  // figures that are not an object are no figures
  EXPECT_TRUE(std::holds_alternative<std::monostate>(records[1].measured));
}

TEST(ResultsFile, LineThatIsNotJsonIsNamedWithFileAndLine) {
  try {
    (void)record::read_records(std::string(HIL_REPORT_DATA_DIR) + "/bad-line.jsonl");
    FAIL() << "expected record::results_format_error";
  } catch (const record::results_format_error& e) {
    EXPECT_EQ(e.line(), 3U);
    EXPECT_THAT(e.what(), HasSubstr("bad-line.jsonl:3: not JSON"));
  }
}

TEST(ResultsFile, JsonThatIsNotAnObjectIsRejected) {
  try {
    (void)test::records_of("{\"case\":\"A.B\"}\n[1,2]\n");
    FAIL() << "expected record::results_format_error";
  } catch (const record::results_format_error& e) {
    EXPECT_STREQ(e.what(), "inline:2: not a result record (a JSON array)");
  }
}

TEST(ResultsFile, UnreadableFileSaysWhichAndWhy) {
  try {
    (void)record::read_records("/nonexistent/hil-results.jsonl");
    FAIL() << "expected std::system_error";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    EXPECT_THAT(e.what(), HasSubstr("cannot read /nonexistent/hil-results.jsonl"));
  }
}

}  // namespace
}  // namespace hil::report
