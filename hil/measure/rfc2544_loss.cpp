#include "hil/measure/rfc2544_loss.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace hil::measure {

loss_sweep_result sweep_frame_loss(const loss_sweep_options& o, const trial_runner& run) {
  if (!(o.max_fps > 0)) {
    throw std::invalid_argument("RFC 2544 frame loss: the media maximum must be > 0");
  }
  if (!(o.step > 0 && o.step <= 0.1 + 1e-9)) {
    throw std::invalid_argument(
        "RFC 2544 frame loss: the step must be a share in (0, 0.1] of the media maximum");
  }
  if (!(o.accepted_loss >= 0 && o.accepted_loss < 1)) {
    throw std::invalid_argument("RFC 2544 frame loss: the accepted loss must be a ratio in [0, 1)");
  }
  loss_sweep_result r;
  const auto steps = static_cast<int>(std::floor(1 / o.step + 1e-9));
  int loss_free_in_a_row = 0;
  for (int k = 0; k < steps; ++k) {
    const double load = 1 - k * o.step;
    const point_rule rule{o.accepted_loss, o.schedule_tolerance,        o.invalid_retries,
                          o.direction,     k == 0 ? o.required_fps : 0, o.required_fps};
    const double fps = o.max_fps * load;
    auto p = measure_point(rule, fps, o.trial_duration, false, run, r.trials);
    // A step above the floor the sender could not offer, though it reaches the floor: the top of
    // what this bench offers, not a measurement; the sweep goes on to the loads the verdict needs.
    // A sender short of the floor itself cannot offer what the verdict needs: not measurable.
    if (p.tool_limited && o.required_fps > 0) {
      r.not_measurable = ceiling_unless_capped(p, fps, o.required_fps, false);
      if (r.not_measurable) return r;
      r.sender_ceiling_fps = std::max(r.sender_ceiling_fps.value_or(0), p.best_sent_fps);
      continue;
    }
    if (!p.counted) {
      r.tool_limited = std::move(p.tool_limited);
      r.not_measurable = p.not_measurable;
      return r;
    }
    r.steps.push_back({*p.counted, load});
    loss_free_in_a_row = r.steps.back().trial.passed ? loss_free_in_a_row + 1 : 0;
    if (loss_free_in_a_row == 2) {
      r.settled = true;
      return r;
    }
  }
  return r;
}

}  // namespace hil::measure
