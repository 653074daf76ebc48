// RFC 2544 §26.3 frame loss rate (docs/checks.md "Rfc2544"): for each frame size of the profile,
// trials at the media maximum and then at loads lower by rfc2544.loss_step_percent of it, until
// two successive trials lose nothing, each trial's loss the frame loss rate at its load. Passes
// when no step at or below the frame size's throughput floor (rfc2544.min_percent, or
// min_percent_by_frame) loses more than rfc2544.accepted_loss_percent: a port may drop frames
// above its floor, never below it. The port and trials as Rfc2544/Throughput's
// (cases/rfc2544_fixture.hpp).
#include <fmt/format.h>

#include "cases/rfc2544_fixture.hpp"
#include "fixtures/attempts.hpp"
#include "hil/measure/rfc2544_checks.hpp"
#include "hil/measure/rfc2544_loss.hpp"

namespace {

hil::record::frame_loss_figures figures_of(const hil::record::frame_port& port,
                                           const hil::measure::loss_sweep_options& o,
                                           double floor_percent,
                                           const hil::measure::loss_sweep_result& r) {
  hil::record::frame_loss_figures f;
  f.port = port;
  f.step_percent = o.step * 100;
  f.floor_percent = floor_percent;
  f.accepted_loss_percent = o.accepted_loss * 100;
  f.settled = r.settled;
  f.tool_limited = r.tool_limited.value_or("");
  f.sender_ceiling_fps = r.sender_ceiling_fps;
  for (const auto& trial : r.trials) f.trials.push_back(hil::cases::trial_record_of(trial));
  return f;
}

class FrameLoss : public hil::cases::frame_size_test {};

TEST_P(FrameLoss, LossPerOfferedLoad) {
  if (!prepare_port()) return;
  const auto& p = ctx().profile;
  hil::measure::loss_sweep_options o;
  o.max_fps = media_max();
  o.step = p.rfc2544.loss_step_percent / 100;
  o.accepted_loss = p.rfc2544.accepted_loss_percent / 100;
  o.trial_duration = std::chrono::seconds(p.durations().rfc2544_trial_seconds);
  o.direction = path().direction;
  const double floor_percent = p.rfc2544.min_percent_for(GetParam().frame);
  const hil::measure::frame_limits limits{frame(),         static_cast<double>(line_mbps()),
                                          media_max(),     floor_percent,
                                          o.accepted_loss, path()};
  o.required_fps = floor_percent / 100 * media_max();
  const std::string what = "Rfc2544 frame loss, " + frame_name();

  hil::fixtures::run_attempts(p, [&]() -> std::optional<hil::fixtures::case_outcome> {
    const auto before = ctx().link.counters(p.dut.interface);
    hil::measure::loss_sweep_result r;
    try {
      r = hil::measure::sweep_frame_loss(o, [&](double fps, std::chrono::milliseconds d) {
        rest();
        return logged(what, run_trial(fps, d),
                      fmt::format("{} s", std::chrono::duration<double>(d).count()));
      });
    } catch (const std::exception& e) {
      ADD_FAILURE() << "an RFC 2544 trial against " << trial().base.host << ":" << trial().base.port
                    << " (" << peer_keys() << " in the board profile) could not run: " << e.what();
      return std::nullopt;
    }
    set_counters(hil::link::delta(before, ctx().link.counters(p.dut.interface)));
    return hil::fixtures::case_outcome{hil::measure::check_frame_loss(limits, r),
                                       figures_of(port_record(), o, floor_percent, r), counters(),
                                       std::nullopt, r.not_measurable};
  });
}

INSTANTIATE_TEST_SUITE_P(Rfc2544, FrameLoss, ::testing::ValuesIn(hil::cases::frame_cases()),
                         hil::cases::frame_case_name);

}  // namespace
