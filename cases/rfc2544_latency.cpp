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
// rest of the load. A stream whose sender fell short of the load is followed by a probe of the
// tester's ceiling as long as the stream: below the load, the case ends as not measurable on this
// bench (the stream's figures recorded). A sender that reaches the load unpaced may still not keep
// it paced: the stream is run again, twice at most, as a search's trial is; short every time
// without loss, the sender cannot offer the load and the case ends as not measurable too; short
// and lossy, the loss counts as the port's. So is a stream run again whose loss its sender's
// catch-up after a stall may explain (measure::lost_to_catch_up).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cases/probed_trial.hpp"
#include "cases/rfc2544_fixture.hpp"
#include "fixtures/attempts.hpp"
#include "hil/measure/rfc2544_checks.hpp"

namespace {

using namespace std::chrono_literals;

// Of the frames: RFC 2544 times a few frames of a stream.
constexpr double latency_probe_share = 0.01;

class Latency : public hil::cases::frame_size_test {
 protected:
  // The stream with its probes at total_fps for duration, run as the file's comment says: again
  // while its sender was short or its loss lay within its catch-up (point_rule's retries), with a
  // probe of the tester's ceiling after the first short stream. The last run, its not_measurable
  // set when the bench could not offer or count the load. Throws what a trial throws.
  hil::cases::probed_trial measure_stream(double total_fps, std::chrono::milliseconds duration,
                                          double accepted_loss, const std::string& what) {
    const hil::measure::point_rule rule;
    std::optional<hil::cases::probed_trial> run;
    double best_fps = 0;  // the best load a stream's sender reached, its probes included
    bool kept = true;
    bool again = true;  // the last stream was short, or lost no more than its catch-up
    bool probed = false;
    std::optional<hil::measure::tester_ceiling> below;  // the probe's, after a short stream
    for (int attempt = 0; again && attempt <= rule.invalid_retries; ++attempt) {
      // After the first short stream, one probe as long as it: a tester below the load ends the
      // case at once; one that reaches it unpaced may keep it paced next time.
      if (!kept && !probed) {
        probed = true;
        below = ceiling_below(total_fps, duration);
        if (below) break;
      }
      rest();
      run = run_probed(total_fps, latency_probe_share, duration);
      const auto& s = run->trial.stream;
      logged(what, s, fmt::format("{} s", duration.count() / 1000.0));
      kept = hil::measure::kept_schedule(s, duration, rule.schedule_tolerance);
      again = !kept || hil::measure::lost_to_catch_up(s, accepted_loss);
      best_fps = std::max(best_fps, s.sent_fps + total_fps - s.offered_fps);
    }
    const auto& s = run->trial.stream;
    // Short every time without loss: the sender cannot offer the load. Frames lost beyond the
    // DUT's port: the receiving end's ceiling.
    if (below) {
      run->trial.not_measurable = below;
    } else if (!kept && s.loss_ratio() <= accepted_loss) {
      run->trial.not_measurable = hil::measure::tester_ceiling{best_fps, total_fps};
    } else {
      run->trial.not_measurable =
          hil::measure::receiver_ceiling(s, duration, accepted_loss, total_fps);
    }
    return std::move(*run);
  }
};

TEST_P(Latency, RoundTripAtFloor) {
  if (!prepare_port()) return;
  const auto& p = ctx().profile;
  const double load_percent = p.rfc2544.min_percent_for(GetParam().frame);
  const double total_fps = load_percent / 100 * media_max();
  const auto duration =
      std::chrono::milliseconds(std::chrono::seconds(p.durations().rfc2544_confirm_seconds));
  const hil::measure::latency_limits limits{
      frame(),      static_cast<double>(line_mbps()), media_max(),
      load_percent, p.rfc2544.latency_median_ms,      p.rfc2544.accepted_loss_percent / 100,
      path()};
  const std::string what = "Rfc2544 latency, " + frame_name();

  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    const auto before = ctx().link.counters(p.dut.interface);
    std::optional<hil::cases::probed_trial> run;
    try {
      run = measure_stream(total_fps, duration, limits.accepted_loss, what);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "an RFC 2544 latency trial against " << trial().base.host << " ("
                    << peer_keys() << " in the board profile) could not run: " << e.what();
      return std::nullopt;
    }
    const auto& t = run->trial;
    std::cout << fmt::format("{}: {}/{} probes answered, round trip p50 {:.3f} ms, p99 {:.3f} ms\n",
                             what, t.probes_received, t.probes_sent, t.round_trip.p50_us / 1000,
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
                hil::measure::kept_schedule(t.stream, duration, 0.001),
                t.stream.port_carried,
                t.stream.sender_overdue};
    f.probes_sent = t.probes_sent;
    f.probes_received = t.probes_received;
    f.probe_interval_ms = static_cast<double>(run->interval.count());
    f.round_trip = hil::record::distribution_of(run->round_trips);
    return hil::fixtures::case_outcome{hil::measure::check_frame_latency(limits, t), f, counters(),
                                       std::nullopt, t.not_measurable};
  });
}

INSTANTIATE_TEST_SUITE_P(Rfc2544, Latency, ::testing::ValuesIn(hil::cases::frame_cases()),
                         hil::cases::frame_case_name);

}  // namespace
