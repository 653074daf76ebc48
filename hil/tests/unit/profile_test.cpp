// Unit tests of the board profile: the shipped profiles load, defaults, every kind of validation
// problem with its key and line, one error listing all problems, the echo round trip, and the
// environment variables HILPERF_PROFILE and HILPERF_DURATIONS.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hil/profile/profile.hpp"
#include "hil/tests/cleared_env.hpp"

namespace hil::profile {
namespace {

const std::filesystem::path boards_dir = std::filesystem::path(HIL_SOURCE_DIR) / "ci" / "boards";

// The smallest valid profile: the required keys of an external bench.
constexpr std::string_view minimal = R"([dut]
ipv4 = "192.168.1.10/24"
[peer]
mode = "external"
ipv4 = "192.168.1.195"
)";

// The problems parse_profile reports for text; fails the test when it accepts the text.
std::vector<problem> problems_of(std::string_view text) {
  try {
    (void)parse_profile(text, "test.toml");
  } catch (const profile_error& error) {
    return error.problems();
  }
  ADD_FAILURE() << "profile was accepted:\n" << text;
  return {};
}

// The one problem parse_profile reports for text (fails the test when there are more or none).
problem only_problem(std::string_view text) {
  const std::vector<problem> problems = problems_of(text);
  EXPECT_EQ(problems.size(), 1U);
  if (problems.size() != 1) {
    for (const problem& p : problems) ADD_FAILURE() << p.key << ":" << p.line << ": " << p.message;
  }
  return problems.empty() ? problem{} : problems.front();
}

// The minimal profile with extra text appended (the lines of minimal are 1-5).
std::string minimal_with(std::string_view extra) {
  return std::string(minimal) + std::string(extra);
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Clears HILPERF_PROFILE and HILPERF_DURATIONS for each test and restores them afterwards, so a
// CI job that sets them does not change what these tests see.
class ProfileEnv : public ::testing::Test {
 private:
  hil::test::cleared_env environment_{"HILPERF_PROFILE", "HILPERF_DURATIONS"};
};

class ProfileFiles : public ProfileEnv {};
class ProfileDefaults : public ProfileEnv {};
class ProfileValidation : public ProfileEnv {};
class ProfileError : public ProfileEnv {};
class ProfileEcho : public ProfileEnv {};
class ProfileSelection : public ProfileEnv {};

void expect_same(const profile& a, const profile& b) {
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.dut.interface, b.dut.interface);
  EXPECT_EQ(a.dut.ipv4, b.dut.ipv4);
  EXPECT_EQ(a.dut.ipv6, b.dut.ipv6);
  EXPECT_EQ(a.peer.mode, b.peer.mode);
  EXPECT_EQ(a.peer.ipv4, b.peer.ipv4);
  EXPECT_EQ(a.peer.ipv6, b.peer.ipv6);
  EXPECT_EQ(a.peer.port, b.peer.port);
  EXPECT_EQ(a.peer.ssh_target, b.peer.ssh_target);
  EXPECT_EQ(a.peer.server, b.peer.server);
  EXPECT_EQ(a.peer.udp_buffer_bytes, b.peer.udp_buffer_bytes);
  EXPECT_EQ(a.peer.netserver_port, b.peer.netserver_port);
  EXPECT_EQ(a.peer.username, b.peer.username);
  EXPECT_EQ(a.peer.rsa_public_key_path, b.peer.rsa_public_key_path);
  EXPECT_EQ(a.peer.use_pkcs1_padding, b.peer.use_pkcs1_padding);
  EXPECT_EQ(a.link.speed_mbps, b.link.speed_mbps);
  EXPECT_EQ(a.link.duplex, b.link.duplex);
  EXPECT_EQ(a.limits.tcp_dut_transmits_mbps, b.limits.tcp_dut_transmits_mbps);
  EXPECT_EQ(a.limits.tcp_dut_receives_mbps, b.limits.tcp_dut_receives_mbps);
  EXPECT_EQ(a.limits.tcp_retransmits_per_interval, b.limits.tcp_retransmits_per_interval);
  EXPECT_EQ(a.limits.datagram_count_tolerance_percent, b.limits.datagram_count_tolerance_percent);
  EXPECT_EQ(a.limits.bidir_each_way_mbps, b.limits.bidir_each_way_mbps);
  EXPECT_EQ(a.peer.ssh_command, b.peer.ssh_command);
  EXPECT_EQ(a.limits.parallel_total_mbps, b.limits.parallel_total_mbps);
  EXPECT_EQ(a.limits.parallel_streams, b.limits.parallel_streams);
  EXPECT_EQ(a.mtu.tiers, b.mtu.tiers);
  EXPECT_EQ(a.mtu.jumbo, b.mtu.jumbo);
  EXPECT_EQ(a.mtu.jumbo_enabled, b.mtu.jumbo_enabled);
  for (const auto& [x, y] : {std::pair(a.quick, b.quick), std::pair(a.nightly, b.nightly)}) {
    EXPECT_EQ(x.tcp_seconds, y.tcp_seconds);
    EXPECT_EQ(x.udp_seconds, y.udp_seconds);
    EXPECT_EQ(x.txrx_seconds, y.txrx_seconds);
    EXPECT_EQ(x.interval_seconds, y.interval_seconds);
  }
  EXPECT_EQ(a.duration_set_name, b.duration_set_name);
  EXPECT_EQ(a.quiet_cpu_pressure_percent, b.quiet_cpu_pressure_percent);
  EXPECT_EQ(a.quiet_other_cpu_percent, b.quiet_other_cpu_percent);
  EXPECT_EQ(a.max_attempts, b.max_attempts);
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.sim.bench, b.sim.bench);
  EXPECT_EQ(a.sim.peer_interface, b.sim.peer_interface);
  EXPECT_EQ(a.sim.shape_mbit, b.sim.shape_mbit);
  EXPECT_EQ(a.sim.peer_mtu, b.sim.peer_mtu);
}

TEST_F(ProfileFiles, SimBenchLoads) {
  const profile p = load_profile(boards_dir / "sim.toml");
  EXPECT_EQ(p.peer.mode, peer_mode::sim);
  EXPECT_EQ(p.dut.ipv4, "198.18.0.10/24");
  EXPECT_EQ(p.dut.ipv6, "2001:2::10/64");
  EXPECT_EQ(p.peer.ipv4, "198.18.0.195");
  EXPECT_EQ(p.peer.ipv6, "2001:2::195");
  EXPECT_EQ(p.peer.port, 5201);
  EXPECT_EQ(p.link.speed_mbps, 10000);
  EXPECT_EQ(p.quick.tcp_seconds, 5);
  EXPECT_EQ(p.quick.txrx_seconds, 5);
  EXPECT_EQ(p.nightly.tcp_seconds, 600);
  EXPECT_EQ(p.sim.shape_mbit, 1000);
  EXPECT_EQ(p.sim.peer_mtu, 9000);
  EXPECT_EQ(p.dut_netns(), "hilperf-hp0-dut");
  EXPECT_EQ(p.peer_netns(), "hilperf-hp0-peer");
}

TEST_F(ProfileFiles, ExampleBoardLoads) {
  const profile p = load_profile(boards_dir / "example-board.toml");
  EXPECT_EQ(p.peer.mode, peer_mode::external);
  EXPECT_EQ(p.dut.interface, "eth0");
  EXPECT_EQ(p.dut.ipv4, "192.168.1.10/24");
  EXPECT_EQ(p.peer.ipv4, "192.168.1.195");
  EXPECT_EQ(p.peer.port, 5002);
  EXPECT_EQ(p.link.speed_mbps, 1000);
  EXPECT_EQ(p.link.duplex, duplex_mode::full);
  EXPECT_EQ(p.limits.tcp_dut_transmits_mbps, 940.0);
  EXPECT_EQ(p.limits.tcp_dut_receives_mbps, 870.0);
  EXPECT_EQ(p.mtu.tiers, (std::vector<int>{576, 1500, 3000}));
  EXPECT_FALSE(p.mtu.jumbo_enabled);
  EXPECT_EQ(p.nightly.tcp_seconds, 600);
  EXPECT_EQ(p.dut_netns(), "");
  EXPECT_EQ(p.peer_netns(), "");
}

TEST_F(ProfileFiles, MissingFileListsProfilesNextToIt) {
  try {
    (void)load_profile(boards_dir / "no-such-board.toml");
    FAIL() << "a missing file was accepted";
  } catch (const profile_error& error) {
    ASSERT_EQ(error.problems().size(), 1U);
    const problem& p = error.problems().front();
    EXPECT_EQ(p.key, "(file)");
    EXPECT_EQ(p.line, 0);
    EXPECT_TRUE(contains(p.message, "does not exist")) << p.message;
    EXPECT_TRUE(contains(p.message, "profiles in ")) << p.message;
    EXPECT_TRUE(contains(p.message, "example-board.toml")) << p.message;
    EXPECT_TRUE(contains(p.message, "sim.toml")) << p.message;
  }
}

TEST_F(ProfileFiles, DirectoryIsNotAProfile) {
  try {
    (void)load_profile(boards_dir);
    FAIL() << "a directory was accepted";
  } catch (const profile_error& error) {
    ASSERT_EQ(error.problems().size(), 1U);
    EXPECT_EQ(error.problems().front().key, "(file)");
    EXPECT_TRUE(contains(error.problems().front().message, "is a directory"));
  }
}

TEST_F(ProfileDefaults, KeysNotGivenKeepStructDefaults) {
  const profile p = parse_profile(minimal, "minimal.toml");
  const profile defaults;
  EXPECT_EQ(p.source, "minimal.toml");
  EXPECT_EQ(p.dut.interface, "eth0");
  EXPECT_EQ(p.dut.ipv6, "");
  EXPECT_EQ(p.peer.port, defaults.peer.port);
  EXPECT_EQ(p.peer.server, peer_server::hilperf_peer);
  EXPECT_EQ(p.link.speed_mbps, 1000);
  EXPECT_EQ(p.link.duplex, duplex_mode::full);
  EXPECT_EQ(p.limits.tcp_dut_transmits_mbps, 940.0);
  EXPECT_EQ(p.limits.tcp_dut_receives_mbps, 870.0);
  EXPECT_EQ(p.limits.tcp_retransmits_per_interval, 200);
  EXPECT_EQ(p.limits.datagram_count_tolerance_percent, 2.0);
  EXPECT_EQ(p.mtu.tiers, (std::vector<int>{576, 1500, 3000}));
  EXPECT_EQ(p.mtu.jumbo, 9000);
  EXPECT_FALSE(p.mtu.jumbo_enabled);
  EXPECT_EQ(p.quick.tcp_seconds, 10);
  EXPECT_EQ(p.nightly.tcp_seconds, 600);
  EXPECT_EQ(p.duration_set_name, "quick");
  EXPECT_EQ(&p.durations(), &p.quick);
  EXPECT_EQ(p.iterations, 5);
  EXPECT_EQ(p.quick.netperf_seconds, 2);
  EXPECT_EQ(p.nightly.latency_seconds, 30);
  EXPECT_EQ(p.netperf.request_size, 1);
  EXPECT_EQ(p.netperf.confidence_level, 99);
  EXPECT_EQ(p.netperf.tcp_rr_per_second, 0.0) << "netperf minimums are opt-in";
  EXPECT_EQ(p.latency.load_streams, 4);
  EXPECT_EQ(p.latency.loaded_p99_ms, 50.0);
  EXPECT_EQ(p.sim.bench, "hp0");
}

TEST_F(ProfileDefaults, NetperfAndLatencyKeysAreValidatedInOnePass) {
  try {
    (void)parse_profile(minimal_with(R"([netperf]
request_size = 0
tcp_rr_per_second = -1
confidence_level = 100
tcp_rr_per_secnd = 5

[latency]
loaded_p99_ms = 0
)"),
                        "t.toml");
    FAIL() << "four mistakes must be refused";
  } catch (const profile_error& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "netperf.request_size")) << what;
    EXPECT_TRUE(contains(what, "netperf.tcp_rr_per_second: must be 0 (not checked) or more"))
        << what;
    EXPECT_TRUE(contains(what, "netperf.confidence_level")) << what;
    EXPECT_TRUE(contains(what, "netperf.tcp_rr_per_secnd")) << what;
    EXPECT_TRUE(contains(what, "latency.loaded_p99_ms")) << what;
  }
}

TEST_F(ProfileDefaults, Rfc2544KeysAreReadAndValidatedInOnePass) {
  const profile p = parse_profile(minimal_with(R"([rfc2544]
frame_sizes = [64, 1518]
min_percent = 90
min_percent_by_frame = { frame64 = 30.5 }
line_mbps = 100
[sim]
frame_port_mbit = 20
)"),
                                  "t.toml");
  EXPECT_EQ(p.rfc2544.frame_sizes, (std::vector<int>{64, 1518}));
  EXPECT_DOUBLE_EQ(p.rfc2544.min_percent_for(64), 30.5);
  EXPECT_DOUBLE_EQ(p.rfc2544.min_percent_for(1518), 90.0);
  EXPECT_EQ(p.rfc2544_line_mbps(), 100) << "line_mbps wins over the sim port";
  EXPECT_EQ(p.sim.frame_port_mbit, 20);
  EXPECT_EQ(parse_profile(echo(p), "echo").rfc2544.min_percent_by_frame,
            p.rfc2544.min_percent_by_frame)
      << "the echo reads back";
  try {
    (void)parse_profile(minimal_with(R"([rfc2544]
frame_sizes = [128, 64, 63]
accepted_loss_percent = 100
min_percent_by_frame = { jumbo = 10.0, frame64 = 0 }
)"),
                        "t.toml");
    FAIL() << "five mistakes must be refused";
  } catch (const profile_error& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "rfc2544.frame_sizes[1]: frame sizes must be strictly increasing"))
        << what;
    EXPECT_TRUE(contains(what, "rfc2544.frame_sizes[2]: must be between 64 and")) << what;
    EXPECT_TRUE(contains(what, "rfc2544.accepted_loss_percent: must be below 100")) << what;
    EXPECT_TRUE(contains(what, "rfc2544.min_percent_by_frame.jumbo: must be named frame<bytes>"))
        << what;
    EXPECT_TRUE(contains(what, "rfc2544.min_percent_by_frame.frame64: must be greater than 0"))
        << what;
  }
}

TEST_F(ProfileDefaults, Rfc2544PathsAreReadEchoedAndValidated) {
  const profile defaults = parse_profile(minimal, "minimal.toml");
  EXPECT_EQ(
      defaults.rfc2544.directions,
      (std::vector<hil::profile::frame_direction>{hil::profile::frame_direction::dut_transmits}))
      << "a profile from before the paths runs what it ran";
  EXPECT_EQ(defaults.rfc2544.ip_versions, (std::vector<int>{4}));
  const profile p = parse_profile(minimal_with(R"([rfc2544]
directions = ["dut_receives", "dut_transmits"]
ip_versions = [4, 6]
)"),
                                  "t.toml");
  EXPECT_EQ(p.rfc2544.directions, (std::vector<hil::profile::frame_direction>{
                                      hil::profile::frame_direction::dut_receives,
                                      hil::profile::frame_direction::dut_transmits}));
  EXPECT_EQ(p.rfc2544.ip_versions, (std::vector<int>{4, 6}));
  const profile back = parse_profile(echo(p), "echo");
  EXPECT_EQ(back.rfc2544.directions, p.rfc2544.directions) << "the echo reads back";
  EXPECT_EQ(back.rfc2544.ip_versions, p.rfc2544.ip_versions);
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"directions = []", "rfc2544.directions: must list at least one direction"},
           {"directions = [\"dut_transmits\", \"dut_transmits\"]",
            "rfc2544.directions[1]: lists a direction twice"},
           {"directions = [\"tx\"]",
            "rfc2544.directions[0]: must be one of \"dut_transmits\", \"dut_receives\""},
           {"ip_versions = [4, 5]", "rfc2544.ip_versions: must list 4, 6 or both"},
           {"ip_versions = [6, 4]", "rfc2544.ip_versions[1]: IP versions must be strictly"},
           {"ip_versions = [3]", "rfc2544.ip_versions[0]: must be between 4 and 6"}}) {
    try {
      (void)parse_profile(minimal_with("[rfc2544]\n" + text + "\n"), "t.toml");
      ADD_FAILURE() << text << " must be refused";
    } catch (const profile_error& e) {
      EXPECT_TRUE(contains(e.what(), message)) << text << ": " << e.what();
    }
  }
}

TEST_F(ProfileDefaults, Y1564KeysAreReadAndValidatedInOnePass) {
  const profile defaults = parse_profile(minimal, "minimal.toml");
  EXPECT_EQ(defaults.y1564.steps_percent, (std::vector<int>{25, 50, 75, 100}));
  EXPECT_EQ(defaults.y1564.cir_mbps, 0);
  EXPECT_EQ(defaults.nightly.y1564_step_seconds, 10);
  const profile p = parse_profile(minimal_with(R"([y1564]
frame_sizes = [64]
steps_percent = [50, 100]
cir_mbps = 800
flr_percent = 0.01
ftd_ms = 2
fdv_ms = 0.5
[durations.quick]
y1564_step_seconds = 3
)"),
                                  "t.toml");
  EXPECT_EQ(p.y1564.frame_sizes, (std::vector<int>{64}));
  EXPECT_EQ(p.y1564.steps_percent, (std::vector<int>{50, 100}));
  EXPECT_DOUBLE_EQ(p.y1564.cir_mbps, 800);
  EXPECT_DOUBLE_EQ(p.y1564.flr_percent, 0.01);
  EXPECT_DOUBLE_EQ(p.y1564.fdv_ms, 0.5);
  EXPECT_EQ(p.quick.y1564_step_seconds, 3);
  const profile back = parse_profile(echo(p), "echo");
  EXPECT_EQ(back.y1564.steps_percent, p.y1564.steps_percent) << "the echo reads back";
  EXPECT_DOUBLE_EQ(back.y1564.ftd_ms, 2);
  try {
    (void)parse_profile(minimal_with(R"([y1564]
steps_percent = [50, 25, 101]
flr_percent = 100
cir_percent = 0
)"),
                        "t.toml");
    FAIL() << "four mistakes must be refused";
  } catch (const profile_error& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "y1564.steps_percent[1]: steps must be strictly increasing"))
        << what;
    EXPECT_TRUE(contains(what, "y1564.steps_percent[2]: must be between 1 and 100")) << what;
    EXPECT_TRUE(contains(what, "y1564.flr_percent: must be below 100")) << what;
    EXPECT_TRUE(contains(what, "y1564.cir_percent: must be greater than 0")) << what;
  }
}

TEST_F(ProfileDefaults, TheSimulatedPortsRateIsTheRfc2544LineRateOnTheSim) {
  profile p = parse_profile(minimal, "minimal.toml");
  p.peer.mode = peer_mode::sim;
  EXPECT_EQ(p.rfc2544_line_mbps(), 10);
  p.sim.frame_port_mbit = 0;
  EXPECT_EQ(p.rfc2544_line_mbps(), p.sim.shape_mbit);
  p.peer.mode = peer_mode::external;
  EXPECT_EQ(p.rfc2544_line_mbps(), p.link.speed_mbps);
}

TEST_F(ProfileDefaults, MbpsThresholdsAcceptIntegers) {
  const profile p = parse_profile(minimal_with(R"([thresholds]
tcp_dut_transmits_mbps = 900
datagram_count_tolerance_percent = 5
)"),
                                  "t.toml");
  EXPECT_EQ(p.limits.tcp_dut_transmits_mbps, 900.0);
  EXPECT_EQ(p.limits.datagram_count_tolerance_percent, 5.0);
}

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
  EXPECT_TRUE(contains(p.message, "unknown key; known keys in [dut]: interface, ipv4, ipv6"))
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

TEST_F(ProfileEcho, StartsWithSourceComment) {
  const std::string text = echo(parse_profile(minimal, "boards/x.toml"));
  EXPECT_EQ(text.rfind("# effective profile from boards/x.toml\n", 0), 0U) << text;
  EXPECT_TRUE(contains(text, "\n[sim]\n")) << text;  // every key, even in external mode
}

TEST_F(ProfileEcho, RoundTripsShippedProfiles) {
  for (const char* name : {"sim.toml", "example-board.toml"}) {
    SCOPED_TRACE(name);
    const profile p = load_profile(boards_dir / name);
    expect_same(parse_profile(echo(p), p.source), p);
  }
}

TEST_F(ProfileEcho, RoundTripsEveryNonDefaultValue) {
  const profile p = parse_profile(R"([dut]
interface = "enp1s0f1"
ipv4 = "10.0.0.1/30"
ipv6 = "fd00::1/126"
[peer]
mode = "ssh"
ipv4 = "10.0.0.2"
ipv6 = "fd00::2"
port = 15002
ssh_target = "lab@pc-01"
server = "iperf3"
udp_buffer_bytes = 1048576
netserver_port = 12866
username = "alice"
rsa_public_key_path = "/etc/hilperf/peer-public.pem"
use_pkcs1_padding = true
[link]
speed_mbps = 2500
duplex = "half"
[thresholds]
tcp_dut_transmits_mbps = 2341.25
tcp_dut_receives_mbps = 0.1
tcp_retransmits_per_interval = 7
datagram_count_tolerance_percent = 12.5
[mtu]
tiers = [68, 1280, 65535]
jumbo = 9216
jumbo_enabled = true
[durations.quick]
tcp_seconds = 3
udp_seconds = 4
txrx_seconds = 6
interval_seconds = 2
[durations.nightly]
tcp_seconds = 86400
udp_seconds = 60
txrx_seconds = 120
interval_seconds = 10
[run]
durations = "nightly"
iterations = 20
quiet_cpu_pressure_percent = 25.5
quiet_other_cpu_percent = 150
max_attempts = 5
[sim]
bench = "b7"
peer_interface = "peer\"0"
shape_mbit = 0
peer_mtu = 1500
)",
                                  "custom.toml");
  expect_same(parse_profile(echo(p), "custom.toml"), p);
}

TEST_F(ProfileSelection, FlagBeatsEnvironmentBeatsFallback) {
  const std::filesystem::path fallback = "ci/boards/sim.toml";
  EXPECT_EQ(select_profile(std::nullopt, fallback), fallback);
  EXPECT_EQ(select_profile(std::string(), fallback), fallback);

  setenv("HILPERF_PROFILE", "from-env.toml", 1);
  EXPECT_EQ(select_profile(std::nullopt, fallback), "from-env.toml");
  EXPECT_EQ(select_profile(std::string(), fallback), "from-env.toml");
  EXPECT_EQ(select_profile(std::string("from-flag.toml"), fallback), "from-flag.toml");

  setenv("HILPERF_PROFILE", "", 1);  // set but empty counts as unset
  EXPECT_EQ(select_profile(std::nullopt, fallback), fallback);
}

}  // namespace
}  // namespace hil::profile
