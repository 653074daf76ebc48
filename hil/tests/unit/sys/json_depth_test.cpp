// The nesting-depth limit every decoder of outside JSON applies before parsing
// (hil/sys/json_depth.hpp): a 400 kB message of 200,000 nested arrays used to crash the peer
// (SIGSEGV in a recursive dump()) and hilperf-report; now each decoder refuses it, naming the
// limit, and error texts never walk a value.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <system_error>

#include "hil/iperf3/exchange.hpp"
#include "hil/iperf3/params.hpp"
#include "hil/record/record_file.hpp"
#include "hil/report/iperf3_json.hpp"
#include "hil/sys/json_depth.hpp"

namespace {

using hil::sys::json_depth_limit;
using hil::sys::json_nesting_depth;
using ::testing::HasSubstr;

std::string nested(std::size_t levels) {
  return std::string(levels, '[') + std::string(levels, ']');
}

TEST(JsonDepth, CountsBracketsOutsideStringsOnly) {
  EXPECT_EQ(json_nesting_depth(R"({"a":"[[[[{{","b":[1,[2]]})"), 3U);
  EXPECT_EQ(json_nesting_depth(R"({"a":"\"[[","b":"\\"})"), 1U) << "escapes honoured";
  EXPECT_EQ(json_nesting_depth("42"), 0U);
  EXPECT_EQ(json_nesting_depth(nested(json_depth_limit)), json_depth_limit);
  EXPECT_FALSE(hil::sys::json_too_deep(nested(json_depth_limit)));
  EXPECT_TRUE(hil::sys::json_too_deep(nested(json_depth_limit + 1)));
}

TEST(JsonDepth, StopsCountingOnceTheLimitIsPassed) {
  EXPECT_EQ(json_nesting_depth(nested(200'000)), json_depth_limit + 1);
  EXPECT_EQ(json_nesting_depth(nested(10), 4), 5U);
}

std::string error_of(const auto& decode) {
  try {
    decode();
  } catch (const std::exception& e) {
    return e.what();
  }
  ADD_FAILURE() << "decoded without an error";
  return {};
}

TEST(JsonDepth, ADeeplyNestedResultsMessageIsRefusedNamingTheLimit) {
  const std::string message = R"({"cpu_util_total":)" + nested(200'000) + "}";
  EXPECT_THAT(error_of([&] { (void)hil::iperf3::decode_results(message); }),
              HasSubstr("nests deeper than 128 levels"));
}

TEST(JsonDepth, ADeeplyNestedParameterMessageIsRefusedNamingTheLimit) {
  const std::string message = R"({"tcp":true,"omit":)" + nested(2'000) + "}";
  EXPECT_THAT(error_of([&] { (void)hil::iperf3::decode_client_params(message); }),
              HasSubstr("nests deeper than 128 levels"));
}

TEST(JsonDepth, AWrongTypeIsNamedWithoutPrintingTheValue) {
  // Within the limit, but a container where a number belongs: the text gives its size only.
  const std::string message = R"({"tcp":true,"time":)" + nested(100) + "}";
  const auto e = error_of([&] { (void)hil::iperf3::decode_client_params(message); });
  EXPECT_THAT(e, HasSubstr("\"time\""));
  EXPECT_THAT(e, HasSubstr("array of 1 elements"));
}

TEST(JsonDepth, DeeplyNestedJOutputOfAStockToolIsRefusedNamingTheLimit) {
  const std::string output = "iperf3 said:\n{\"start\":" + nested(200'000) + "}\n";
  EXPECT_THAT(error_of([&] { (void)hil::report::parse_iperf3_json(output); }),
              HasSubstr("nests deeper than 128 levels"));
}

TEST(JsonDepth, ADeeplyNestedResultsFileLineIsAFormatErrorWithItsLine) {
  std::istringstream file("\n" + nested(200'000) + "\n");
  EXPECT_THAT(error_of([&] { (void)hil::record::parse_records(file, "hil-results.jsonl"); }),
              HasSubstr("hil-results.jsonl:2: nests deeper than 128 levels"));
}

}  // namespace
