// RFC 2544 throughput on the simulated port: the run's bench shaped with tbf to 10 Mbit/s with
// Ethernet's per-frame cost (FCS, preamble, gap: overhead 24), so the link carries exactly the
// media maximum, 10e6 / ((frame + 20) × 8) frames/s; the search (measure/rfc2544_search) with
// iperf3 UDP trials (session/frame_trial) against a real hilperf-peer must find it, frame size by
// frame size, within the search's resolution. 10 Mbit/s keeps the sender's work (15,000 frames/s
// of 64 bytes at most) far below what one busy core gives it: the figure is the port's.
//
// The search starts at 1.5 × the media maximum, so the answer is the shaper's, not the search's
// ceiling: without the per-frame cost tbf would carry 40 % more 64-byte frames. tbf's bucket is
// 3,200 bytes and its queue 32,000 (26 ms at the rate, room for a sender's catch-up after a
// stall): a trial above the rate loses frames once its excess exceeds them, so the answer can
// exceed the rate by at most (bucket + queue) / (rate × the 2 s confirmation) — 1.4 % here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "hil/measure/frames.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/session/frame_trial.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/process.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using namespace std::chrono_literals;
constexpr std::uint16_t port = 5201;
constexpr int line_mbit = 10;
constexpr std::uint64_t line_bps = line_mbit * 1'000'000ULL;
constexpr int bucket_bytes = 3200;  // tbf burst
constexpr int queue_bytes = 32000;  // tbf limit

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }
std::string peer_address() { return bench().peer_ipv4.substr(0, bench().peer_ipv4.find('/')); }

// Both ends shaped to `mbit` counting each frame's 24 bytes of FCS, preamble and gap (tbf sees
// the frame without its FCS); the bench's own shaping back on destruction.
class ethernet_shaping {
 public:
  explicit ethernet_shaping(int mbit) {
    shape(bench().dut_netns, bench().dut_interface, mbit, true);
    shape(bench().peer_netns, bench().peer_interface, mbit, true);
  }
  ~ethernet_shaping() {
    try {
      shape(bench().dut_netns, bench().dut_interface, bench().shape_mbit, false);
      shape(bench().peer_netns, bench().peer_interface, bench().shape_mbit, false);
    } catch (const std::exception& e) {
      std::cerr << "could not restore the bench's shaping: " << e.what() << '\n';
    }
  }
  ethernet_shaping(const ethernet_shaping&) = delete;
  ethernet_shaping& operator=(const ethernet_shaping&) = delete;

 private:
  // framed: this test's tight Ethernet port; otherwise the bench's own shaping.
  static void shape(const std::string& ns, const std::string& dev, int mbit, bool framed) {
    if (framed) {
      hil::sys::run_checked({"tc", "-n", ns, "qdisc", "replace", "dev", dev, "root", "tbf", "rate",
                             std::to_string(mbit) + "mbit", "burst", std::to_string(bucket_bytes),
                             "limit", std::to_string(queue_bytes), "overhead", "24"});
      return;
    }
    hil::bench::shape(ns, dev, mbit);
  }
};

std::unique_ptr<hil::sys::child_process> start_peer() {
  auto peer = std::make_unique<hil::sys::child_process>(
      std::vector<std::string>{"ip", "netns", "exec", bench().peer_netns, HILPERF_PEER_BINARY, "-s",
                               "-p", std::to_string(port), "--iperf2-port", "0"});
  EXPECT_TRUE(peer->wait_for_output("listening on port", 10s)) << peer->output();
  return peer;
}

class Rfc2544Throughput : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(Rfc2544Throughput, TheZeroLossRateIsWhatTheShapedPortCarries) {
  const std::uint32_t frame = GetParam();
  const ethernet_shaping shaping(line_mbit);
  const auto peer = start_peer();
  hil::session::frame_trial_options t;
  t.base.host = peer_address();
  t.base.port = port;
  t.frame_bytes = frame;
  hil::measure::search_options o;
  const double media_max = hil::measure::media_max_fps(line_bps, frame);
  o.max_fps = 1.5 * media_max;
  o.resolution = 0.01;
  o.trial_duration = 1s;
  o.confirm_duration = 2s;
  const auto r = hil::measure::find_throughput(
      o, [&](double fps, std::chrono::milliseconds d) { return run_frame_trial(t, fps, d); });
  for (const auto& trial : r.trials) {
    std::cout << "  " << frame << " B: offered " << trial.outcome.offered_fps << " sent "
              << trial.outcome.sent_fps << " lost "
              << trial.outcome.sent - std::min(trial.outcome.sent, trial.outcome.received) << " of "
              << trial.outcome.sent << (trial.confirmation ? " (confirmation)" : "") << '\n';
  }
  ASSERT_FALSE(r.tool_limited) << *r.tool_limited;
  ASSERT_TRUE(r.throughput_fps) << "no loss-free rate found";
  // What the shaper admits: the media maximum of the port, and for one trial a little more, as
  // long as the excess fits its bucket and queue.
  const double expected = media_max;
  // (The answer always passed a trial of confirm_duration: the first 2 s one, or a re-search.)
  const double absorbed = static_cast<double>(bucket_bytes + queue_bytes) /
                          (static_cast<double>(line_bps) / 8 *
                           std::chrono::duration<double>(o.confirm_duration).count());
  std::cout << frame << " B: zero-loss " << *r.throughput_fps << " frames/s, media maximum "
            << expected << " (" << 100 * *r.throughput_fps / expected << " %)\n";
  EXPECT_GE(*r.throughput_fps, expected - o.resolution * o.max_fps)
      << "the search found less than the port carries";
  EXPECT_LE(*r.throughput_fps, expected * (1 + absorbed))
      << "more than the port carries, beyond what its bucket and queue absorb in one trial";
}

INSTANTIATE_TEST_SUITE_P(Frames, Rfc2544Throughput, ::testing::Values(64U, 512U, 1518U),
                         [](const auto& p) { return "frame" + std::to_string(p.param); });

}  // namespace
