// ITU-T Y.1564 service configuration test (docs/checks.md "Y1564"): for each frame size of
// y1564.frame_sizes, a service offered in steps of its committed information rate (CIR:
// y1564.cir_mbps, or y1564.cir_percent of the whole frames the line rate carries at that size),
// y1564.steps_percent of it in rising order, each step a stream of frames with ICMP echo probes of
// the same size inside it (durations.y1564_step_seconds), judged against the service acceptance
// criteria: frame loss ratio ≤ y1564.flr_percent, frame transfer delay (the probes' median round
// trip) ≤ y1564.ftd_ms, frame delay variation (their p99 less their minimum) ≤ y1564.fdv_ms.
// Passes when every step passes; every step runs, so the record has the whole step table.
//
// Probes are at most a tenth of a step's frames (100 a second at most): with RFC 2544's one in a
// hundred a 25 % step of large frames would carry two probes, too few for a p99. They are frames
// of the step's size and part of its rate, so the step's load is what it says. A step short of
// its rate is followed, after the last step, by a probe of the tester's ceiling: below the highest
// step's rate the case ends as not measurable on this bench (the steps recorded); else the
// shortfall fails as the tool's limit. (Steps last their duration whatever the sender reaches,
// so the probe can wait for a shortfall and costs nothing on a tester that keeps the rates.) A
// step whose loss its sender's catch-up after a stall may explain is run again, twice at most
// (measure::lost_to_catch_up).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "cases/probed_trial.hpp"
#include "cases/rfc2544_fixture.hpp"
#include "fixtures/attempts.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/measure/y1564_checks.hpp"

namespace {

class ServiceConfiguration : public hil::cases::frame_size_test {};

constexpr double step_probe_share = 0.1;  // of a step's frames

// The service's CIR in Mbit/s of whole frames: the profile's, or its share of what the line
// carries of frames of frame_bytes (each frame costs 20 more bytes of preamble and gap).
double cir_mbps_of(const hil::profile::y1564_config& c, double line_mbps, std::uint32_t frame) {
  if (c.cir_mbps > 0) return c.cir_mbps;
  return c.cir_percent / 100 * line_mbps * frame / (frame + 20.0);
}

hil::record::y1564_step_record step_record_of(const hil::measure::y1564_limits& l,
                                              const hil::cases::probed_trial& run,
                                              const hil::measure::y1564_step& s) {
  hil::record::y1564_step_record r;
  r.percent = s.percent;
  r.offered_mbps = l.cir_mbps * s.percent / 100;
  r.ir_mbps = hil::measure::information_rate_mbps(l, s);
  r.flr_percent = hil::measure::frame_loss_percent(s);
  r.ftd_ms = hil::measure::ftd_ms(s);
  r.fdv_ms = hil::measure::fdv_ms(s);
  r.pass = hil::measure::check_y1564_step(l, s).pass;
  const auto& t = s.trial.stream;
  const bool kept = hil::measure::kept_schedule(t, s.trial.duration, 0.001);
  r.stream = {t.offered_fps,
              t.sent_fps,
              t.sent,
              t.received,
              std::chrono::duration<double>(s.trial.duration).count(),
              r.pass,
              false,
              kept,
              t.port_carried,
              t.sender_overdue};
  r.probes_sent = s.trial.probes_sent;
  r.probes_received = s.trial.probes_received;
  r.round_trip = hil::record::distribution_of(run.round_trips);
  return r;
}

TEST_P(ServiceConfiguration, StepLoad) {
  if (!prepare_port()) return;
  const auto& p = ctx().profile;
  const auto& c = p.y1564;
  hil::measure::y1564_limits limits;
  limits.frame_bytes = frame();
  limits.line_mbps = line_mbps();
  limits.media_max_fps = media_max();
  limits.cir_mbps = cir_mbps_of(c, line_mbps(), frame());
  limits.flr_percent = c.flr_percent;
  limits.ftd_ms = c.ftd_ms;
  limits.fdv_ms = c.fdv_ms;
  limits.path = path();
  const auto duration =
      std::chrono::milliseconds(std::chrono::seconds(p.durations().y1564_step_seconds));
  const std::string what = "Y1564 " + frame_name();

  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    const auto before = ctx().link.counters(p.dut.interface);
    hil::record::y1564_figures f;
    f.port = port_record();
    f.cir_mbps = limits.cir_mbps;
    f.flr_limit_percent = limits.flr_percent;
    f.ftd_limit_ms = limits.ftd_ms;
    f.fdv_limit_ms = limits.fdv_ms;
    std::vector<hil::measure::y1564_step> steps;
    for (const int percent : c.steps_percent) {
      hil::measure::y1564_step s;
      s.percent = percent;
      std::optional<hil::cases::probed_trial> run;
      try {
        // A step whose loss its sender's catch-up after a stall may explain is run again.
        const hil::measure::point_rule rule;
        for (int attempt = 0;; ++attempt) {
          rest();
          run = run_probed(hil::measure::step_fps(limits, percent), step_probe_share, duration);
          logged(fmt::format("{} step {} %", what, percent), run->trial.stream,
                 fmt::format("{} s", duration.count() / 1000.0));
          if (attempt == rule.invalid_retries ||
              !hil::measure::lost_to_catch_up(run->trial.stream, limits.flr_percent / 100)) {
            break;
          }
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << "a Y.1564 step (" << percent << " % of CIR " << limits.cir_mbps
                      << " Mbit/s) against " << trial().base.host << " (" << peer_keys()
                      << " in the board profile) could not run: " << e.what();
        return std::nullopt;
      }
      s.trial = run->trial;
      steps.push_back(s);
      f.probe_interval_ms = static_cast<double>(run->interval.count());
      f.steps.push_back(step_record_of(limits, *run, s));
      const auto& r = f.steps.back();
      std::cout << fmt::format(
                       "{} step {} %: IR {:.3f} of {:.3f} Mbit/s, FLR {:.3f} %, {}/{} probes, FTD "
                       "{:.3f} ms, FDV {:.3f} ms: {}\n",
                       what, percent, r.ir_mbps, r.offered_mbps, r.flr_percent, r.probes_received,
                       r.probes_sent, r.ftd_ms, r.fdv_ms, r.pass ? "pass" : "fail")
                << std::flush;
    }
    // A step short of its rate: the tester's ceiling, or a stall of its sender? A step whose
    // frames were lost beyond the DUT's port: the receiving end's ceiling.
    std::optional<hil::measure::tester_ceiling> ceiling;
    for (const auto& s : steps) {
      if (ceiling) break;
      ceiling =
          hil::measure::receiver_ceiling(s.trial.stream, duration, limits.flr_percent / 100,
                                         hil::measure::step_fps(limits, steps.back().percent));
    }
    if (!ceiling && std::ranges::any_of(steps, [&](const auto& s) {
          return !hil::measure::kept_schedule(s.trial.stream, duration, 0.001);
        })) {
      try {
        ceiling = ceiling_below(hil::measure::step_fps(limits, steps.back().percent), duration);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "a Y.1564 ceiling probe against " << trial().base.host << " ("
                      << peer_keys() << " in the board profile) could not run: " << e.what();
        return std::nullopt;
      }
    }
    set_counters(hil::link::delta(before, ctx().link.counters(p.dut.interface)));
    return hil::fixtures::case_outcome{hil::measure::check_y1564(limits, steps, ceiling), f,
                                       counters(), std::nullopt, ceiling};
  });
}

INSTANTIATE_TEST_SUITE_P(Y1564, ServiceConfiguration,
                         ::testing::ValuesIn(hil::cases::y1564_frame_cases()),
                         hil::cases::frame_case_name);

}  // namespace
