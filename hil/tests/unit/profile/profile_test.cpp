// Unit tests of the board profile: the shipped profiles and farms load, defaults, every key
// group read and validated, the echo round trip, and the selection by HILPERF_PROFILE
// (validation messages: profile_validation_test.cpp; the reference: profile_reference_test.cpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hil/profile/farm.hpp"
#include "hil/profile/profile.hpp"
#include "hil/tests/unit/profile/profile_test_support.hpp"

namespace hil::profile {
namespace {

class ProfileFiles : public ProfileEnv {};
class ProfileDefaults : public ProfileEnv {};
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

TEST_F(ProfileDefaults, TheSimulatedPortIsTbfUnlessXdpIsAskedAndAnythingElseIsRefused) {
  EXPECT_EQ(parse_profile(minimal, "minimal.toml").sim.frame_port,
            hil::profile::sim_frame_port::tbf)
      << "a profile from before the key keeps its tbf port";
  const profile p = parse_profile(minimal_with("[sim]\nframe_port = \"xdp\"\n"), "t.toml");
  EXPECT_EQ(p.sim.frame_port, hil::profile::sim_frame_port::xdp);
  EXPECT_TRUE(contains(echo(p), "frame_port = \"xdp\"")) << echo(p);
  EXPECT_EQ(parse_profile(echo(p), "echo").sim.frame_port, p.sim.frame_port)
      << "the echo reads back";
  try {
    (void)parse_profile(minimal_with("[sim]\nframe_port = \"bpf\"\nframe_port_mbit = -1\n"),
                        "t.toml");
    FAIL() << "two mistakes must be refused";
  } catch (const profile_error& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "sim.frame_port: must be one of \"tbf\", \"xdp\"")) << what;
    EXPECT_TRUE(contains(what, "sim.frame_port_mbit: must be between 0 and"))
        << what << ": both in the one pass";
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

// Every profile and farm file the repository ships loads, and each board's echo reads back to
// the same echo.
TEST_F(ProfileEcho, EveryShippedProfileAndFarmLoadsAndEchoesBack) {
  const std::filesystem::path ci = boards_dir.parent_path();
  int files = 0;
  for (const auto& dir : {ci / "boards", ci / "farms"}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".toml") continue;
      SCOPED_TRACE(entry.path().string());
      ++files;
      std::vector<profile> boards;
      if (dir == ci / "farms") {
        for (auto& board : load_farm(entry.path()).boards) boards.push_back(board.board);
      } else {
        boards.push_back(load_profile(entry.path()));
      }
      for (const profile& p : boards) {
        const std::string text = echo(p);
        const profile back = parse_profile(text, p.source);
        expect_same(back, p);
        EXPECT_EQ(echo(back), text);
      }
    }
  }
  EXPECT_GE(files, 7) << "ci/boards/*.toml and ci/farms/*.toml";
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
