// RFC 2544 throughput on a simulated port: the run's bench shaped as an Ethernet port
// (bench::ethernet_port: tbf counting FCS, preamble and gap), so the link carries exactly the
// media maximum, rate / ((frame + 20) × 8) frames/s; the search (measure/rfc2544_search) with
// iperf3 UDP trials (session/frame_trial) against a real hilperf-peer must find it, frame size by
// frame size, within the search's resolution.
//
// The search starts at 1.5 × the media maximum, so the answer is the shaper's, not the search's
// ceiling: without the per-frame cost tbf would carry 40 % more 64-byte frames. The port's bucket
// (two 1518-byte frames, in wire bytes: frame + 20 each) and queue (100 ms at the rate, at least
// 32,000 bytes, counted as tbf sees frames: without their FCS) absorb a trial's excess until they
// fill, so the answer can exceed the media maximum by at most that many frames over the 2 s
// confirmation: 7.1 % for 64-byte frames at 10 Mbit/s, 5.2 % for 1518.
//
// At 10 and 100 Mbit/s on this 2-vCPU runner kind (5 of 5 with a CPU hog on one core: 64 bytes at
// 10 Mbit/s 106.6 % of the maximum, 1518 at 100 Mbit/s 103.9 %; 512 bytes at 10 Mbit/s 4 of 4 with
// busy loops on both cores, 99.1–103.3 %, once a loss within the sender's catch-up after a stall
// is measured again: before, 1 in 3 such runs failed). Not at 1 Gbit/s: 1518-byte
// frames asked at 1.5 × 81,274/s leave at about 80,700/s (the port's tbf re-arms its timer for
// every frame or two, and that and the peer's receive path run on the sender's core: docs/checks.md
// §3.13), so that search ends, rightly, as the tool's limit; nor 64- and
// 128-byte frames at 100 Mbit/s (83,600 of 126,689 asked at 128 bytes). hilperf-bench measures the
// sender; the Rfc2544 cases use 10 Mbit/s on the simulated bench. At 1 Gbit/s the port is emulated
// in XDP instead (Rfc2544XdpPort, below).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <iostream>
#include <thread>

#include "hil/bench/sim_bench.hpp"
#include "hil/bench/xdp_port.hpp"
#include "hil/measure/frames.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/profile/profile.hpp"
#include "hil/session/frame_trial.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/cpu_pressure.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using namespace std::chrono_literals;
constexpr std::uint16_t port = 5201;
constexpr int largest_frame = 1518;  // the bench's MTU 1500

const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }
std::string peer_address() { return hil::sys::without_prefix(bench().peer_ipv4); }

std::unique_ptr<hil::sys::child_process> start_peer() {
  auto peer = std::make_unique<hil::sys::child_process>(
      std::vector<std::string>{"ip", "netns", "exec", bench().peer_netns, HILPERF_PEER_BINARY, "-s",
                               "-p", std::to_string(port), "--iperf2-port", "0"});
  EXPECT_TRUE(peer->wait_for_output("listening on port", 10s)) << peer->output();
  return peer;
}

// Each trial of a search, as the log shows it.
void print_trials(std::uint32_t frame, const hil::measure::search_result& r) {
  for (const auto& trial : r.trials) {
    std::cout << "  " << frame << " B: offered " << trial.outcome.offered_fps << " sent "
              << trial.outcome.sent_fps << " lost "
              << trial.outcome.sent - std::min(trial.outcome.sent, trial.outcome.received) << " of "
              << trial.outcome.sent << " overdue " << trial.outcome.sender_overdue.value_or(0)
              << (trial.confirmation ? " (confirmation)" : "")
              << (trial.valid ? "" : " (sender short)") << '\n';
  }
}

struct port_case {
  int mbit;
  std::uint32_t frame;
};

class Rfc2544Throughput : public ::testing::TestWithParam<port_case> {};

TEST_P(Rfc2544Throughput, TheZeroLossRateIsWhatTheShapedPortCarries) {
  const auto [mbit, frame] = GetParam();
  const std::uint64_t line_bps = static_cast<std::uint64_t>(mbit) * 1'000'000;
  const hil::bench::ethernet_port shaping(bench(), mbit, largest_frame);
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
  // Each trial after a rest as long as the port takes to empty its queue and refill its bucket, as
  // the Rfc2544 cases rest (frame_size_test::rest): a trial above the port's rate leaves its
  // queue full, and one started into a full queue loses any catch-up of its sender at once.
  const auto rest = 100ms + shaping.drain_time();
  const auto r = hil::measure::find_throughput(o, [&](double fps, std::chrono::milliseconds d) {
    std::this_thread::sleep_for(rest);
    return run_frame_trial(t, fps, d);
  });
  print_trials(frame, r);
  ASSERT_FALSE(r.tool_limited) << *r.tool_limited;
  ASSERT_TRUE(r.throughput_fps) << "no loss-free rate found";
  // The port's bucket and queue as bench::ethernet_port sizes them, in frames of this size: the
  // bucket in wire bytes (frame + 20: tbf's overhead 24 less the FCS it never sees), the queue in
  // the bytes tbf sees (frame − 4).
  const double bucket = 2.0 * (largest_frame + 24);
  const double queue =
      static_cast<double>(hil::bench::ethernet_shape_of(mbit, largest_frame).queue_bytes);
  const double frames_held = bucket / (frame + 20) + queue / (frame - 4);
  const double absorbed =
      frames_held / (media_max * std::chrono::duration<double>(o.confirm_duration).count());
  std::cout << frame << " B at " << mbit << " Mbit/s: zero-loss " << *r.throughput_fps
            << " frames/s, media maximum " << media_max << " ("
            << 100 * *r.throughput_fps / media_max << " %)\n";
  EXPECT_GE(*r.throughput_fps, media_max - o.resolution * o.max_fps)
      << "the search found less than the port carries";
  EXPECT_LE(*r.throughput_fps, media_max * (1 + absorbed))
      << "more than the port carries, beyond what its bucket and queue absorb in one trial";
}

INSTANTIATE_TEST_SUITE_P(Frames, Rfc2544Throughput,
                         ::testing::Values(port_case{10, 64}, port_case{10, 512},
                                           port_case{10, 1518}, port_case{100, 512},
                                           port_case{100, 1518}),
                         [](const auto& p) {
                           return std::to_string(p.param.mbit) + "mbit_frame" +
                                  std::to_string(p.param.frame);
                         });

// The calling thread kept on one CPU until destruction (threads it starts inherit it).
class pinned_to {
 public:
  explicit pinned_to(int cpu) {
    EXPECT_EQ(::pthread_getaffinity_np(::pthread_self(), sizeof before_, &before_), 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    EXPECT_EQ(::pthread_setaffinity_np(::pthread_self(), sizeof one, &one), 0);
  }
  ~pinned_to() { ::pthread_setaffinity_np(::pthread_self(), sizeof before_, &before_); }
  pinned_to(const pinned_to&) = delete;
  pinned_to& operator=(const pinned_to&) = delete;

 private:
  cpu_set_t before_{};
};

// At 1 Gbit/s on the port emulated in XDP (bench::xdp_ethernet_port: a token bucket charging each
// frame its wire size, frame + 20 bytes, in the receiving veth's own NAPI thread), which tbf
// cannot give (above): the search must find the media maximum of 1518-byte frames, 81,274
// frames/s, within 99.0–100.1 %. It starts at 1.1 × the maximum (above it, so the answer is the
// port's) and stops within 0.5 % of that, 0.55 % of the maximum: at least 99.45 %. The bucket
// (256 frames of 1518 bytes: a veth's ring, which a held-up receive poll takes back to back)
// starts each trial full, so a trial passes up to that many frames above the rate: over the 4 s
// trials and confirmation, 0.079 % of the maximum, under the 0.1 % asked. The receiving veth's
// NAPI thread is real-time (hil::xdp::napi_thread), as a NIC's port waits for no scheduler.
class Rfc2544XdpPort : public ::testing::TestWithParam<port_case> {};

TEST_P(Rfc2544XdpPort, TheZeroLossRateIsWhatTheXdpPortCarries) {
  const auto [mbit, frame] = GetParam();
  const double media_max =
      hil::measure::media_max_fps(static_cast<std::uint64_t>(mbit) * 1'000'000, frame);
  const auto bucket = hil::bench::xdp_bucket_bytes(static_cast<int>(frame), largest_frame);
  // The receiving ends' NAPI threads (real-time) on CPU 1 and the sender on CPU 0: a real-time
  // thread preempting the sender left it up to 2,000 frames overdue, and its catch-up burst
  // overflowed the bucket (measured, 4 s trials at 44,700 frames/s on an otherwise idle machine).
  const hil::bench::xdp_ethernet_port shaping(bench(), mbit, bucket, HILPERF_XDP_PORT_BINARY, 1);
  std::cout << shaping.description();
  const auto peer = start_peer();
  const pinned_to cpu0(0);
  hil::session::frame_trial_options t;
  t.base.host = peer_address();
  t.base.port = port;
  t.frame_bytes = frame;
  // The peer's receive buffer as the cases ask it (peer.udp_buffer_bytes, 4 MiB): 50 ms of the
  // rate, where the default 208 KiB overflows in 1.7 ms of a peer held up.
  t.base.spec.window = 4 << 20;
  hil::measure::search_options o;
  o.max_fps = 1.1 * media_max;
  o.resolution = 0.005;
  // Trials as long as the confirmation: a 1 s trial passes up to 0.31 % above the rate (the full
  // bucket over one second), which the 4 s confirmation then rightly refuses, and the search,
  // halving, starts again far below.
  o.trial_duration = 4s;
  o.confirm_duration = 4s;
  // Each trial after the bucket has filled again (it holds no queue to drain).
  const auto rest = 100ms + shaping.drain_time();
  const hil::sys::cpu_pressure_meter meter;  // what else ran: the figures' run conditions
  const auto r = hil::measure::find_throughput(o, [&](double fps, std::chrono::milliseconds d) {
    std::this_thread::sleep_for(rest);
    return run_frame_trial(t, fps, d);
  });
  print_trials(frame, r);
  const auto busy = meter.finish({"hilperf-peer"});
  std::cout << "during the search: " << busy.describe() << '\n';
  const double bucket_frames = static_cast<double>(bucket) / (frame + 20);
  const double absorbed =
      bucket_frames / (media_max * std::chrono::duration<double>(o.confirm_duration).count());
  // This proof needs both cores: the sender on one, the port's real-time NAPI threads on the other
  // (a compiler on a fifth of a core brought the search down to 82 %). When other processes took
  // more than the quiet bench allows (docs/quiet-bench.md: 20 % of a core) and the figure is out
  // of its bounds, the bench could not offer the rate: said, with what ran, not judged.
  const bool in_bounds = r.throughput_fps && !r.tool_limited &&
                         *r.throughput_fps >= 0.990 * media_max &&
                         *r.throughput_fps <= media_max * (1 + absorbed);
  // The quiet bench's limit on other processes' CPU: the profile's default, declared there once.
  const double quiet_other_cpu_percent = hil::profile::profile{}.quiet_other_cpu_percent;
  if (!in_bounds && busy.others_cpu_percent() > quiet_other_cpu_percent) {
    GTEST_SKIP() << "not measurable on this bench: the 1 Gbit/s search needs both cores, and other "
                    "processes used "
                 << static_cast<int>(busy.others_cpu_percent()) << " % of a core ("
                 << busy.describe() << ")";
  }
  ASSERT_FALSE(r.tool_limited) << *r.tool_limited;
  ASSERT_TRUE(r.throughput_fps) << "no loss-free rate found";
  std::cout << frame << " B at " << mbit << " Mbit/s: zero-loss " << *r.throughput_fps
            << " frames/s, media maximum " << media_max << " ("
            << 100 * *r.throughput_fps / media_max << " %)\n";
  EXPECT_GE(*r.throughput_fps, media_max - o.resolution * o.max_fps)
      << "the search found less than the port carries";
  EXPECT_GE(*r.throughput_fps, 0.990 * media_max);
  EXPECT_LE(*r.throughput_fps, media_max * (1 + absorbed))
      << "more than the port carries, beyond what its bucket passes in one confirmation";
  EXPECT_LE(*r.throughput_fps, 1.001 * media_max);
}

INSTANTIATE_TEST_SUITE_P(Frames, Rfc2544XdpPort, ::testing::Values(port_case{1000, 1518}),
                         [](const auto& p) {
                           return std::to_string(p.param.mbit) + "mbit_frame" +
                                  std::to_string(p.param.frame);
                         });

// A trial's sender shares its CPU with a busy loop (a loaded bench, a board's other tasks): it
// must still offer the whole schedule, catching up in one send whenever it woke late. Sending one
// datagram per wake-up, it fell 1.5–3.3 % short of 8,304 frames/s in 2 s on this runner kind with
// busy loops on both cores, and the search took the trial for the tool's limit.
TEST(Rfc2544Sender, KeepsItsScheduleOnACpuItSharesWithABusyLoop) {
  const auto peer = start_peer();
  hil::session::frame_trial_options t;
  t.base.host = peer_address();
  t.base.port = port;
  t.frame_bytes = 1518;
  const pinned_to cpu0(0);
  hil::sys::child_process busy({"sh", "-c", "while :; do :; done"});  // on CPU 0 too (inherited)
  constexpr double fps = 8304;  // below the spinning waiter's threshold, as the 100 Mbit/s search
  const auto out = run_frame_trial(t, fps, 2s);
  EXPECT_TRUE(hil::measure::kept_schedule(out, 2s, 0.001))
      << "offered " << fps << " frames/s for 2 s, sent " << out.sent << " (" << out.sent_fps
      << "/s)";
}

// A sender whose CPU is taken stalls and falls behind its schedule; the trial says by how many
// frames at most (sender_overdue), the burst its catch-up sent above the rate, so the search can
// tell a loss that burst may explain from the port's (docs/checks.md "Rfc2544"). The stall is
// real: half a second into the trial a real-time busy loop takes the sender's CPU for 150 ms.
TEST(Rfc2544Sender, SaysHowFarBehindItFellWhenItsCpuWasTaken) {
  const auto peer = start_peer();
  hil::session::frame_trial_options t;
  t.base.host = peer_address();
  t.base.port = port;
  t.frame_bytes = 512;
  constexpr double fps = 2000;
  const pinned_to cpu0(0);
  // timeout (FIFO 20) ends the loop (FIFO 10) that nothing else on CPU 0 may preempt.
  hil::sys::child_process stall({"sh", "-c",
                                 "sleep 0.5; exec chrt -f 20 taskset -c 0 timeout 0.15 chrt -f 10 "
                                 "sh -c 'while :; do :; done'"});
  const auto out = run_frame_trial(t, fps, 2s);
  (void)stall.wait(5s);
  ASSERT_TRUE(out.sender_overdue) << "this process sent the trial";
  // At 2,000 frames/s a stall of 50 ms leaves 100 frames overdue; this one lasted 150 ms.
  EXPECT_GE(*out.sender_overdue, 100U)
      << "sent " << out.sent << " at " << out.sent_fps << " frames/s, a 150 ms stall";
}

}  // namespace
