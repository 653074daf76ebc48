// What the request/response tools print, as hilperf-rr-bench reads it (rr_parse.hpp): real
// output of sockperf 3.7 and netperf 2.7.0, and malformed figures (fuzz/rr_parse.cpp), each
// refused with std::runtime_error as the contract says.
#include "rr_parse.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace hil::rr_bench_tool {
namespace {

using ::testing::HasSubstr;

const std::string sockperf_output =
    "sockperf: [Valid Duration] RunTime=0.550 sec; SentMessages=8484; ReceivedMessages=8484\n"
    "sockperf: \x1b[2;35m====> avg-rtt=64.826 (std-dev=14.067)\x1b[0m\n"
    "sockperf: # dropped messages = 0; # duplicated messages = 0; # out-of-order messages = 0\n"
    "sockperf: ---> percentile 99.000 =  108.569\n"
    "sockperf: ---> percentile 90.000 =   80.819\n"
    "sockperf: ---> percentile 50.000 =   63.072\n";

// The runtime_error text parse throws on text; fails the test when it throws nothing.
template <typename Parse>
std::string refusal(Parse parse, const std::string& text) {
  try {
    (void)parse(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no refusal of: " << text;
  return {};
}

TEST(RrParse, ReadsSockperfsFullRoundTripOutput) {
  const auto s = parse_sockperf(sockperf_output);
  EXPECT_NEAR(s.transactions_per_second, 8484 / 0.550, 0.01);
  EXPECT_DOUBLE_EQ(s.p50_us, 63.072);
  EXPECT_DOUBLE_EQ(s.p99_us, 108.569);
  EXPECT_EQ(s.lost, 0U);
}

TEST(RrParse, ReadsNetperfsLatencyLine) {
  const auto s = parse_netperf("49186.83,20.28,13,18,58,5661\n");
  EXPECT_DOUBLE_EQ(s.transactions_per_second, 49186.83);
  EXPECT_DOUBLE_EQ(s.p90_us, 18);
}

// Found by fuzz/rr_parse.cpp (a sockperf percentile of "."): std::stod threw std::invalid_argument,
// a logic_error, for a figure the pattern [0-9.]+ matches but that is no number, and
// std::stoull std::out_of_range for a count beyond 64 bits.
TEST(RrParse, AFigureThatIsNoNumberIsARuntimeErrorNamingIt) {
  std::string dot = sockperf_output;
  dot.replace(dot.find("0.550"), 5, ".");
  EXPECT_THAT(refusal(parse_sockperf, dot), HasSubstr("sockperf's RunTime '.' is no number"));
  EXPECT_THAT(refusal(parse_netperf, "1.2.3,20,13,18,58,5661\n"),
              HasSubstr("netperf's THROUGHPUT '1.2.3' is no number"));
  std::string huge = sockperf_output;
  huge.replace(huge.find("dropped messages = 0"), 20, "dropped messages = 99999999999999999999999");
  EXPECT_THAT(refusal(parse_sockperf, huge), HasSubstr("is no count"));
}

// "lost":1e300 was cast from double to uint64 (undefined behaviour, a UBSan report in
// fuzz/rr_parse.cpp); a count that is no unsigned integer, or a figure that is no number, is
// refused.
TEST(RrParse, HilperfJsonFiguresOfTheWrongKindAreRefused) {
  const std::string good =
      R"({"transactions_per_second":48231.1,"latency_us":{"p50":18.9,"p90":24.1,"p99":41.7},)"
      R"("lost":0})";
  EXPECT_DOUBLE_EQ(parse_hilperf_json(good).p99_us, 41.7);
  std::string text = good;
  text.replace(text.find("\"lost\":0"), 8, "\"lost\":1e300");
  EXPECT_THAT(refusal(parse_hilperf_json, text), HasSubstr("\"lost\" is no count"));
  text = good;
  text.replace(text.find("\"lost\":0"), 8, "\"lost\":-1");
  EXPECT_THAT(refusal(parse_hilperf_json, text), HasSubstr("\"lost\" is no count"));
  text = good;
  text.replace(text.find("48231.1"), 7, "true");
  EXPECT_THAT(refusal(parse_hilperf_json, text),
              HasSubstr("\"transactions_per_second\" is no number"));
}

}  // namespace
}  // namespace hil::rr_bench_tool
