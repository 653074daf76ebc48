// Unit tests of the profile's validation: every kind of problem with its key and line, the
// checks across keys, HILPERF_DURATIONS, and one error listing every problem.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "hil/profile/profile.hpp"
#include "hil/tests/unit/profile/profile_test_support.hpp"

namespace hil::profile {
namespace {

class ProfileValidation : public ProfileEnv {};
class ProfileError : public ProfileEnv {};

TEST_F(ProfileValidation, UnknownKeyNamesKnownKeysAndLine) {
  const problem p = only_problem(R"([dut]
ipv4 = "192.168.1.10/24"
ipv5 = "x"
[peer]
mode = "external"
ipv4 = "192.168.1.195"
)");
  EXPECT_EQ(p.key, "dut.ipv5");
  EXPECT_EQ(p.line, 3);
  EXPECT_TRUE(contains(p.message, "unknown key; known keys in [dut]: mode, interface, ipv4, ipv6"))
      << p.message;
  EXPECT_TRUE(contains(p.message, "did you mean")) << p.message;
}

TEST_F(ProfileValidation, UnknownTable) {
  const problem p = only_problem(minimal_with("[links]\nspeed_mbps = 1000\n"));
  EXPECT_EQ(p.key, "links");
  EXPECT_EQ(p.line, 6);
  EXPECT_TRUE(contains(p.message, "unknown table; known tables: dut, peer, link")) << p.message;
}

TEST_F(ProfileValidation, UnknownDurationSet) {
  const problem p = only_problem(minimal_with("[durations.weekly]\ntcp_seconds = 10\n"));
  EXPECT_EQ(p.key, "durations.weekly");
  EXPECT_TRUE(contains(p.message, "quick, nightly")) << p.message;
}

TEST_F(ProfileValidation, WrongType) {
  const problem p = only_problem(minimal_with("[link]\nspeed_mbps = \"1000\"\n"));
  EXPECT_EQ(p.key, "link.speed_mbps");
  EXPECT_EQ(p.line, 7);
  EXPECT_EQ(p.message, "expected an integer, got a string");
}

TEST_F(ProfileValidation, ValueWhereATableIsExpected) {
  const problem p = only_problem("link = 1000\n" + std::string(minimal));
  EXPECT_EQ(p.key, "link");
  EXPECT_EQ(p.line, 1);
  EXPECT_EQ(p.message, "expected a table, got an integer");
}

TEST_F(ProfileValidation, OutOfRange) {
  const problem p = only_problem(minimal_with("[durations.quick]\ntcp_seconds = 0\n"));
  EXPECT_EQ(p.key, "durations.quick.tcp_seconds");
  EXPECT_EQ(p.line, 7);
  EXPECT_EQ(p.message, "must be between 1 and 86400, got 0");
}

TEST_F(ProfileValidation, ToleranceAboveFifty) {
  const problem p =
      only_problem(minimal_with("[thresholds]\ndatagram_count_tolerance_percent = 60.5\n"));
  EXPECT_EQ(p.key, "thresholds.datagram_count_tolerance_percent");
  EXPECT_EQ(p.message, "must be greater than 0 and at most 50, got 60.5");
}

TEST_F(ProfileValidation, ThresholdNotPositive) {
  const problem p = only_problem(minimal_with("[thresholds]\ntcp_dut_receives_mbps = -1\n"));
  EXPECT_EQ(p.key, "thresholds.tcp_dut_receives_mbps");
  EXPECT_EQ(p.message, "must be greater than 0, got -1");
}

TEST_F(ProfileValidation, BadEnumListsAllowedValues) {
  const problem p = only_problem(minimal_with("[link]\nduplex = \"auto\"\n"));
  EXPECT_EQ(p.key, "link.duplex");
  EXPECT_EQ(p.message, R"(must be one of "full", "half"; got "auto")");
}

TEST_F(ProfileValidation, BadPeerMode) {
  const std::vector<problem> problems = problems_of(R"([dut]
ipv4 = "192.168.1.10/24"
[peer]
mode = "local"
ipv4 = "192.168.1.195"
)");
  ASSERT_EQ(problems.size(), 1U);  // no "missing" and no sim-range follow-ups
  EXPECT_EQ(problems[0].key, "peer.mode");
  EXPECT_EQ(problems[0].message, R"(must be one of "sim", "ssh", "external"; got "local")");
}

TEST_F(ProfileValidation, DutIpv4WithoutPrefix) {
  const problem p = only_problem(R"([dut]
ipv4 = "192.168.1.10"
[peer]
mode = "external"
ipv4 = "192.168.1.195"
)");
  EXPECT_EQ(p.key, "dut.ipv4");
  EXPECT_EQ(p.line, 2);
  EXPECT_TRUE(contains(p.message, "with a prefix length")) << p.message;
}

TEST_F(ProfileValidation, BadAddresses) {
  const std::vector<problem> problems = problems_of(R"([dut]
ipv4 = "192.168.1.10/33"
ipv6 = "2001:db8::zz/64"
[peer]
mode = "external"
ipv4 = "192.168.1.195/24"
ipv6 = "2001:db8::1"
)");
  ASSERT_EQ(problems.size(), 3U);
  EXPECT_EQ(problems[0].key, "dut.ipv4");
  EXPECT_EQ(problems[0].message, R"(prefix length must be between 1 and 32, got "33")");
  EXPECT_EQ(problems[1].key, "dut.ipv6");
  EXPECT_TRUE(contains(problems[1].message, "not a valid IPv6 address")) << problems[1].message;
  EXPECT_EQ(problems[2].key, "peer.ipv4");
  EXPECT_TRUE(contains(problems[2].message, "without a prefix length")) << problems[2].message;
}

TEST_F(ProfileValidation, MissingRequiredKeysComeLast) {
  const std::vector<problem> problems = problems_of(R"([dut]
interface = "eth1"
[link]
speed_mbps = 5
)");
  ASSERT_EQ(problems.size(), 4U);
  EXPECT_EQ(problems[0].key, "link.speed_mbps");
  EXPECT_EQ(problems[0].line, 4);
  std::vector<std::string> missing;
  for (std::size_t i = 1; i < problems.size(); ++i) {
    EXPECT_EQ(problems[i].line, 0);
    EXPECT_TRUE(contains(problems[i].message, "missing required key")) << problems[i].message;
    missing.push_back(problems[i].key);
  }
  EXPECT_EQ(missing, (std::vector<std::string>{"dut.ipv4", "peer.ipv4", "peer.mode"}));
}

TEST_F(ProfileValidation, SimAddressOutsideBenchmarkRange) {
  const std::vector<problem> problems = problems_of(R"([dut]
ipv4 = "192.168.1.10/24"
ipv6 = "2001:db8::10/64"
[peer]
mode = "sim"
ipv4 = "198.20.0.195"
ipv6 = "2001:3::195"
)");
  ASSERT_EQ(problems.size(), 4U);
  EXPECT_EQ(problems[0].key, "dut.ipv4");
  EXPECT_TRUE(contains(problems[0].message, "benchmarking range 198.18.0.0/15"))
      << problems[0].message;
  EXPECT_EQ(problems[1].key, "dut.ipv6");
  EXPECT_TRUE(contains(problems[1].message, "benchmarking range 2001:2::/48"))
      << problems[1].message;
  EXPECT_EQ(problems[2].key, "peer.ipv4");
  EXPECT_EQ(problems[3].key, "peer.ipv6");
}

TEST_F(ProfileValidation, SimIpv6OnBothEndsOrNeither) {
  const problem p = only_problem(R"([dut]
ipv4 = "198.18.0.10/24"
ipv6 = "2001:2::10/64"
[peer]
mode = "sim"
ipv4 = "198.19.255.195"
)");
  EXPECT_EQ(p.key, "peer.ipv6");
  EXPECT_TRUE(contains(p.message, "both set or both empty")) << p.message;
}

TEST_F(ProfileValidation, BenchmarkRangeOnlyInSimMode) {
  EXPECT_NO_THROW((void)parse_profile(minimal_with("[sim]\nbench = \"lab1\"\n"), "t.toml"));
}

TEST_F(ProfileValidation, SshWithoutTarget) {
  const problem p = only_problem(R"([dut]
ipv4 = "192.168.1.10/24"
[peer]
mode = "ssh"
ipv4 = "192.168.1.195"
)");
  EXPECT_EQ(p.key, "peer.ssh_target");
  EXPECT_EQ(p.line, 0);
  EXPECT_TRUE(contains(p.message, "required when peer.mode is \"ssh\"")) << p.message;
}

TEST_F(ProfileValidation, HistoryUrlHoldsNoPassword) {
  const problem p =
      only_problem(minimal_with("[history]\nurl = \"postgresql://ci:secret@db.lab/hilperf\"\n"));
  EXPECT_EQ(p.key, "history.url");
  EXPECT_EQ(p.line, 7);
  EXPECT_TRUE(contains(p.message, "holds a password: give it in PGPASSWORD")) << p.message;
  EXPECT_FALSE(contains(p.message, "secret")) << p.message;
}

TEST_F(ProfileValidation, HistoryUrlOrDirAndAKnownScheme) {
  const problem both =
      only_problem(minimal_with("[history]\ndir = \"history\"\nurl = \"sqlite:history.sqlite\"\n"));
  EXPECT_EQ(both.key, "history.url");
  EXPECT_TRUE(contains(both.message, "not both")) << both.message;
  const problem scheme = only_problem(minimal_with("[history]\nurl = \"mysql://db/h\"\n"));
  EXPECT_TRUE(contains(scheme.message, "must be sqlite:FILE, postgresql://")) << scheme.message;
  const profile ok = parse_profile(
      minimal_with("[history]\nurl = \"postgresql://ci@db.lab:5433/hilperf\"\n"), "t.toml");
  EXPECT_EQ(ok.history.url, "postgresql://ci@db.lab:5433/hilperf");
}

TEST_F(ProfileValidation, SshWithTargetLoads) {
  const profile p = parse_profile(R"([dut]
ipv4 = "192.168.1.10/24"
[peer]
mode = "ssh"
ipv4 = "192.168.1.195"
ssh_target = "lab@192.168.1.195"
)",
                                  "t.toml");
  EXPECT_EQ(p.peer.mode, peer_mode::ssh);
  EXPECT_EQ(p.peer.ssh_target, "lab@192.168.1.195");
}

TEST_F(ProfileValidation, AuthenticationTakesUserAndKeyTogether) {
  const problem p = only_problem(R"([dut]
ipv4 = "192.168.1.10/24"
[peer]
mode = "external"
ipv4 = "192.168.1.195"
username = "alice"
)");
  EXPECT_EQ(p.key, "peer.rsa_public_key_path");
  EXPECT_TRUE(contains(p.message, "go together")) << p.message;
  const problem q = only_problem(R"([dut]
ipv4 = "192.168.1.10/24"
[peer]
mode = "external"
ipv4 = "192.168.1.195"
use_pkcs1_padding = true
)");
  EXPECT_EQ(q.key, "peer.use_pkcs1_padding");
  EXPECT_TRUE(contains(q.message, "needs peer.username")) << q.message;
}

TEST_F(ProfileValidation, TiersNotIncreasing) {
  const problem p = only_problem(minimal_with(R"([mtu]
tiers = [
  576,
  3000,
  1500,
]
)"));
  EXPECT_EQ(p.key, "mtu.tiers[2]");
  EXPECT_EQ(p.line, 10);
  EXPECT_EQ(p.message, "tiers must be strictly increasing, but 1500 follows 3000");
}

TEST_F(ProfileValidation, TiersEmptyOrOutOfRange) {
  EXPECT_EQ(only_problem(minimal_with("[mtu]\ntiers = []\n")).key, "mtu.tiers");
  const problem p = only_problem(minimal_with("[mtu]\ntiers = [60, 1500]\n"));
  EXPECT_EQ(p.key, "mtu.tiers[0]");
  EXPECT_EQ(p.message, "must be between 68 and 65535, got 60");
}

TEST_F(ProfileValidation, InterfaceAndBenchNames) {
  const std::vector<problem> names = problems_of(minimal_with(R"([sim]
bench = "HP-0"
peer_interface = "a-name-too-long-for-linux"
)"));
  ASSERT_EQ(names.size(), 2U);
  EXPECT_EQ(names[0].key, "sim.bench");
  EXPECT_EQ(names[1].key, "sim.peer_interface");
  EXPECT_TRUE(contains(names[1].message, "Linux interface name")) << names[1].message;
  const problem p = only_problem(R"([dut]
interface = "eth 0"
ipv4 = "192.168.1.10/24"
[peer]
mode = "external"
ipv4 = "192.168.1.195"
)");
  EXPECT_EQ(p.key, "dut.interface");
}

TEST_F(ProfileValidation, SyntaxErrorWithLine) {
  const problem p = only_problem(minimal_with("[link]\nspeed_mbps = = 1000\n"));
  EXPECT_EQ(p.key, "(syntax)");
  EXPECT_EQ(p.line, 7);
  EXPECT_FALSE(p.message.empty());
}

TEST_F(ProfileValidation, DurationsEnvironmentOverride) {
  setenv("HILPERF_DURATIONS", "nightly", 1);
  const profile p = parse_profile(minimal_with("[run]\ndurations = \"quick\"\n"), "t.toml");
  EXPECT_EQ(p.duration_set_name, "nightly");
  EXPECT_EQ(p.durations().tcp_seconds, 600);

  setenv("HILPERF_DURATIONS", "weekly", 1);
  const problem bad = only_problem(minimal);
  EXPECT_EQ(bad.key, "HILPERF_DURATIONS (environment)");
  EXPECT_EQ(bad.line, 0);
  EXPECT_TRUE(contains(bad.message, "\"quick\" or \"nightly\"")) << bad.message;

  setenv("HILPERF_DURATIONS", "", 1);  // set but empty counts as unset
  EXPECT_EQ(parse_profile(minimal, "t.toml").duration_set_name, "quick");
}

TEST_F(ProfileError, ThreeMistakesInOneError) {
  const std::string text = R"([dut]
ipv4 = "192.168.1.10/24"
[peer]
mode = "external"
ipv4 = "192.168.1.195"
port = 0
[link]
speed_mbps = 1000
duplx = "full"
[run]
iterations = "3"
)";
  try {
    (void)parse_profile(text, "board.toml");
    FAIL() << "a profile with three mistakes was accepted";
  } catch (const profile_error& error) {
    const std::vector<problem>& problems = error.problems();
    ASSERT_EQ(problems.size(), 3U);
    EXPECT_EQ(problems[0].key, "peer.port");
    EXPECT_EQ(problems[0].line, 6);
    EXPECT_EQ(problems[1].key, "link.duplx");
    EXPECT_EQ(problems[1].line, 9);
    EXPECT_EQ(problems[2].key, "run.iterations");
    EXPECT_EQ(problems[2].line, 11);
    const std::string what = error.what();
    EXPECT_TRUE(contains(what, "profile board.toml has 3 problem(s):\n")) << what;
    EXPECT_TRUE(contains(what, "\n  board.toml:6: peer.port: must be between 1 and 65535, got 0"))
        << what;
    EXPECT_TRUE(contains(what, "\n  board.toml:9: link.duplx: unknown key")) << what;
    EXPECT_TRUE(contains(what, "\n  board.toml:11: run.iterations: expected an integer")) << what;
  }
}

TEST_F(ProfileError, WhatOmitsLineZero) {
  const profile_error error("b.toml", {{"peer.mode", 0, "missing"}, {"dut.ipv4", 2, "bad"}});
  EXPECT_STREQ(error.what(),
               "profile b.toml has 2 problem(s):\n"
               "  b.toml: peer.mode: missing\n"
               "  b.toml:2: dut.ipv4: bad");
  EXPECT_EQ(error.problems().size(), 2U);
}

}  // namespace
}  // namespace hil::profile
