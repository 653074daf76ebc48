// hilperf's command line (tools/hilperf/options.hpp): the flags fill the test as iperf3's do, and
// the check of the combination lists every problem at once.
#include "options.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace hilperf {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

raw_options parsed(std::vector<std::string> args) {
  CLI::App app;
  raw_options raw;
  declare(app, raw);
  args.insert(args.begin(), "hilperf");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  app.parse(static_cast<int>(argv.size()), argv.data());
  return raw;
}

TEST(HilperfOptions, TheProceduresMtuTierCommandFillsTheTest) {
  const auto raw = parsed({"-c", "192.168.1.12", "-p", "5002", "-u", "-l", "548", "-b", "100M",
                           "-t", "5", "-i", "1", "--dont-fragment"});
  EXPECT_TRUE(problems(raw).empty());
  const auto r = to_request(raw);
  EXPECT_FALSE(r.workload.has_value());
  EXPECT_EQ(r.client.host, "192.168.1.12");
  EXPECT_EQ(r.client.port, 5002);
  EXPECT_EQ(r.client.spec.proto, hil::measure::protocol::udp);
  EXPECT_EQ(r.client.spec.block_len, 548U);
  EXPECT_EQ(r.client.spec.bitrate_bps, 100'000'000U);
  EXPECT_EQ(r.client.spec.duration, std::chrono::seconds(5));
  EXPECT_TRUE(r.client.spec.dont_fragment);
}

TEST(HilperfOptions, EveryProblemOfTheCombinationIsListed) {
  const auto p = problems(parsed({"-c", "pc", "-n", "1M", "-k", "10", "-O", "700", "-i", "0.01",
                                  "--dont-fragment", "-l", "2M"}));
  EXPECT_THAT(p, ElementsAre(HasSubstr("-n and -k exclude each other"), HasSubstr("-O 700"),
                             HasSubstr("-i 0.01"), HasSubstr("-l 2097152"),
                             HasSubstr("--dont-fragment needs -u")));
}

TEST(HilperfOptions, TimesAreWholeSecondsInRangeAndNeverNan) {
  EXPECT_THAT(problems(parsed({"-c", "pc", "-t", "0.5"})),
              ElementsAre(HasSubstr("-t 0.5 is outside 1..86400 seconds")));
  EXPECT_THAT(problems(parsed({"-c", "pc", "-t", "2.5"})),
              ElementsAre(HasSubstr("-t 2.5: whole seconds only")));
  EXPECT_THAT(problems(parsed({"-c", "pc", "-t", "nan"})),
              ElementsAre(HasSubstr("-t nan is outside")));
  EXPECT_THAT(problems(parsed({"-c", "pc", "-n", "1M", "-t", "nan"})),
              ElementsAre(HasSubstr("-t nan")));
  EXPECT_THAT(problems(parsed({"-c", "pc", "-i", "-1"})),
              ElementsAre(HasSubstr("-i -1 is outside")));
  EXPECT_THAT(problems(parsed({"-c", "pc", "-i", "nan"})),
              ElementsAre(HasSubstr("-i nan is outside")));
  EXPECT_THAT(problems(parsed({"-c", "pc", "-O", "nan"})),
              ElementsAre(HasSubstr("-O nan is outside")));
  EXPECT_TRUE(problems(parsed({"-c", "pc", "-t", "3", "-i", "0"})).empty());
}

TEST(HilperfOptions, APortOutsideOneTo65535IsRefusedAtParseTime) {
  EXPECT_THROW(parsed({"-c", "pc", "-p", "0"}), CLI::ValidationError);
  EXPECT_THROW(parsed({"-c", "pc", "-p", "70000"}), CLI::ParseError);
  EXPECT_EQ(to_request(parsed({"-c", "[::1]", "-p", "65535"})).client.port, 65535);
}

TEST(HilperfOptions, UdpDatagramsMustFitUdp) {
  EXPECT_THAT(problems(parsed({"-c", "pc", "-u", "-l", "65508"})),
              ElementsAre(HasSubstr("outside 16..65507 bytes for a UDP datagram")));
  EXPECT_TRUE(problems(parsed({"-c", "pc", "-u", "-l", "65507"})).empty());
}

TEST(HilperfOptions, AWorkloadTakesNoStreamFlags) {
  const auto raw = parsed({"-c", "pc", "--workload", "TCP_RR", "-r", "64,1024", "-R", "-b", "1M"});
  EXPECT_THAT(problems(raw), ElementsAre(HasSubstr("-R and --bidir does not apply"),
                                         HasSubstr("-b, -l, -n, -k and -w does not apply")));
  const auto ok = to_request(parsed({"-c", "pc", "--workload", "TCP_RR", "-r", "64,1024"}));
  ASSERT_TRUE(ok.workload.has_value());
  EXPECT_EQ(ok.workload->spec.request_size, 64U);
  EXPECT_EQ(ok.workload->spec.response_size, 1024U);
}

}  // namespace
}  // namespace hilperf
