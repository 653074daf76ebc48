// RFC 2544 §26.2 latency (docs/checks.md "Rfc2544"): for each frame size of the profile, a stream
// of frames at the frame size's throughput floor (rfc2544.min_percent, or min_percent_by_frame)
// of the media maximum, and meanwhile ICMP echo requests of the same frame size through the same
// port, each answered by the peer's host and timed as a round trip. Passes when the probes'
// median is within rfc2544.latency_median_ms (p99 and max are recorded beside it), every probe
// was answered and the stream lost nothing (or at most rfc2544.accepted_loss_percent).
//
// How this differs from the RFC, and why (stated under the report's latency table): the RFC tags
// one frame of the stream per 120 s trial and times it one way, at the throughput the search found;
// here many probes per trial, each its own frame between the stream's (an iperf3 stream cannot
// carry a reflected tag, and any peer's host answers ping), timed as a round trip (one-way needs
// clocks in sync), at the floor the port must carry (so the case stands on its own, not on another
// case's answer). Probes are at most 1 % of the frames and 100 a second; the stream offers the
// rest of the load.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <future>

#include "cases/rfc2544_fixture.hpp"
#include "fixtures/attempts.hpp"
#include "hil/measure/latency_histogram.hpp"
#include "hil/measure/rfc2544_checks.hpp"
#include "hil/traffic/icmp_echo.hpp"

namespace {

using namespace std::chrono_literals;

class Latency : public hil::cases::frame_size_test {};

TEST_P(Latency, RoundTripAtFloor) {
  if (!prepare_port()) return;
  const auto& p = ctx().profile;
  const double load_percent = p.rfc2544.min_percent_for(GetParam().frame);
  const double total_fps = load_percent / 100 * media_max();
  // Probes: 1 % of the frames at most, 100 a second at most.
  const auto interval = std::chrono::milliseconds(
      static_cast<long>(std::ceil(std::max(10.0, 100'000.0 / total_fps))));
  const double stream_fps = total_fps - 1000.0 / static_cast<double>(interval.count());
  const auto duration =
      std::chrono::milliseconds(std::chrono::seconds(p.durations().rfc2544_confirm_seconds));
  // The probes run inside the stream: from a tenth of it (and its set-up) to its last tenth.
  const auto lead = 200ms + duration / 10;
  const auto window = duration * 8 / 10;
  hil::traffic::echo_options echo;
  echo.count = static_cast<int>(window / interval);
  echo.interval = interval;
  echo.timeout = 1s;
  echo.payload_bytes = frame() - 18 - 20 - 8;  // Ethernet header and FCS, IPv4, ICMP header
  const hil::measure::latency_limits limits{
      frame(),      static_cast<double>(line_mbps()), media_max(),
      load_percent, p.rfc2544.latency_median_ms,      p.rfc2544.accepted_loss_percent / 100};
  const std::string what = fmt::format("Rfc2544 latency, frame{}", frame());

  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    const auto before = ctx().link.counters(p.dut.interface);
    hil::measure::latency_trial t;
    t.duration = duration;
    hil::traffic::echo_result probes;
    try {
      rest();
      const auto start = std::chrono::steady_clock::now();
      echo.stop_sending_at = start + lead + window;
      auto probing = std::async(std::launch::async, [&] {
        std::this_thread::sleep_until(start + lead);
        return hil::traffic::icmp_echo(p.peer.ipv4, p.dut.interface, echo);
      });
      std::optional<hil::measure::trial_outcome> stream;
      std::exception_ptr failed;
      try {
        stream = run_frame_trial(trial(), stream_fps, duration);
      } catch (...) {
        failed = std::current_exception();
      }
      probes = probing.get();  // bounded: the window and one probe's timeout
      if (failed) std::rethrow_exception(failed);
      t.stream = logged(what, *stream, fmt::format("{} s", duration.count() / 1000.0));
    } catch (const std::exception& e) {
      ADD_FAILURE() << "an RFC 2544 latency trial against " << p.peer.ipv4
                    << " (peer.ipv4 and peer.port in the board profile) could not run: "
                    << e.what();
      return std::nullopt;
    }
    hil::measure::latency_histogram h;
    for (const auto rtt : probes.rtts) h.record(rtt);
    t.probes_sent = probes.sent;
    t.probes_received = probes.received;
    t.round_trip = h.summarize();
    std::cout << fmt::format("{}: {}/{} probes answered, round trip p50 {:.3f} ms, p99 {:.3f} ms\n",
                             what, probes.received, probes.sent, t.round_trip.p50_us / 1000,
                             t.round_trip.p99_us / 1000)
              << std::flush;
    set_counters(hil::link::delta(before, ctx().link.counters(p.dut.interface)));
    hil::record::frame_latency_figures f;
    f.port = port_record();
    f.load_percent = load_percent;
    const bool within = t.stream.loss_ratio() <= limits.accepted_loss;
    f.stream = {t.stream.offered_fps,
                t.stream.sent_fps,
                t.stream.sent,
                t.stream.received,
                std::chrono::duration<double>(duration).count(),
                within,
                false,
                hil::measure::kept_schedule(t.stream, duration, 0.001)};
    f.probes_sent = probes.sent;
    f.probes_received = probes.received;
    f.probe_interval_ms = static_cast<double>(interval.count());
    f.round_trip = hil::record::distribution_of(h);
    return hil::fixtures::case_outcome{hil::measure::check_frame_latency(limits, t), f, counters()};
  });
}

INSTANTIATE_TEST_SUITE_P(Rfc2544, Latency, ::testing::ValuesIn(hil::cases::frame_cases()),
                         hil::cases::frame_case_name);

}  // namespace
