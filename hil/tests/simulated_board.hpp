// A board and its runner on a simulated bench of the test's own, for the tests that run the suite
// on a board from the runner (ci/board-launcher, ci/run-hil --board-ssh and --board-console):
//
//   netns hilperf-<tag><pid>-dut: the board     netns hilperf-<tag><pid>-peer: the runner and PC
//   eth0 198.18.0.10/24 ─────────── veth ──────── pc0 198.18.0.195/24, hilperf-peer (start_peer)
//
// The runner has no DUT interface, so a link check that passes from there ran on the board. Both
// namespaces share this host's file system and libraries: the board runs this build's programs.
// The derived fixture starts what stands in the board's namespace (dropbear, a console's shell)
// after SetUp and stops it before TearDown, which takes the bench down.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hil/bench/sim_bench.hpp"
#include "hil/profile/profile.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/process.hpp"
#include "hil/tests/neutral_output.hpp"
#include "hil/tests/temp_dir.hpp"

namespace hil::test {

// The text of file; empty when it cannot be read.
[[nodiscard]] inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A board profile as the launched cases see the bench: its DUT side, the PC an external peer at
// 198.18.0.195:5201, the link speed the cases expect (veth reports 10000), then more tables.
[[nodiscard]] inline std::string board_profile(int speed_mbps, const std::string& more = "") {
  return R"([dut]
interface = "eth0"
ipv4 = "198.18.0.10/24"
[peer]
mode = "external"
ipv4 = "198.18.0.195"
port = 5201
[link]
speed_mbps = )" +
         std::to_string(speed_mbps) + "\n" + more;
}

class simulated_board : public ::testing::Test {
 protected:
  // tag: a letter that keeps this test's bench apart from the others' (hilperf-<tag><pid>-*);
  // temp_prefix: its temporary directory's name.
  simulated_board(std::string tag, const std::string& temp_prefix)
      : tag_(std::move(tag)), tmp_(temp_prefix) {}

  // Brings the bench up; throws std::system_error quoting the failing command.
  void SetUp() override {
    const auto sim = write("sim.toml", R"([dut]
interface = "eth0"
ipv4 = "198.18.0.10/24"
[peer]
mode = "sim"
ipv4 = "198.18.0.195"
[link]
speed_mbps = 10000
[sim]
peer_interface = "pc0"
bench = ")" + tag_ + std::to_string(::getpid()) +
                                           "\"\n");
    layout_ = bench::layout_of(profile::load_profile(sim));
    bench::bench_up(*layout_);
  }

  // Stops the PC's server and takes the bench down; a bench that cannot go fails the test.
  void TearDown() override {
    peer_.reset();
    if (layout_) bench::bench_down(*layout_);
  }

  // Writes text to name in the test's directory; returns its path.
  std::filesystem::path write(const std::string& name, const std::string& text) {
    const std::filesystem::path file = dir_ / name;
    std::ofstream(file) << text;
    return file;
  }

  // The PC's server (peer_binary -s) in the runner's namespace, listening within 10 s.
  void start_peer(const std::string& peer_binary) {
    peer_.emplace(
        std::vector<std::string>{"ip", "netns", "exec", layout_->peer_netns, peer_binary, "-s"});
    ASSERT_TRUE(peer_->wait_for_output("listening on port", std::chrono::seconds(10)))
        << neutral(peer_->output());
  }

  // argv run on the runner, its output made safe to print.
  sys::run_result run_on_runner(const std::vector<std::string>& argv,
                                std::chrono::milliseconds timeout) const {
    std::vector<std::string> full{"ip", "netns", "exec", layout_->peer_netns};
    full.insert(full.end(), argv.begin(), argv.end());
    return run_neutral(full, timeout);
  }

  // The runner has no DUT interface: link checks that passed did so on the board.
  void expect_no_dut_interface_on_runner() const {
    const auto r = run_neutral({"ip", "-n", layout_->peer_netns, "link", "show", "dev", "eth0"},
                               std::chrono::seconds(10));
    EXPECT_NE(r.exit_code, 0) << r.output;
  }

  std::string tag_;
  temp_dir tmp_;
  const std::filesystem::path& dir_ = tmp_.path();
  std::optional<bench::sim_layout> layout_;
  std::optional<sys::child_process> peer_;
};

}  // namespace hil::test
