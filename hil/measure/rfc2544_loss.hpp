// RFC 2544 §26.3 frame loss rate: trials at the media maximum, then at loads lower by a step of at
// most 10 % of it, until two successive trials lose no frame (or at most an accepted loss ratio);
// each trial's loss is the frame loss rate at its offered load. The sweep knows no sockets: a trial
// is a callable (hil/traffic runs them), so scripted outcomes test it.
//
//   100 % ─▶ 90 % ─▶ 80 % … each a trial of trial_duration; stop after two successive loss-free
//   trials, or after the lowest step (one step above zero)
//
// A trial whose sender fell short is measured again, lossy or not (the search's rule,
// rfc2544_search.hpp); a point short every time counts as failed when its last trial lost frames
// (the port lost them at no more than the offered load), else the sweep stops as the tool's or the
// DUT CPU's limit. With a floor (required_fps), a step above it whose sender fell short without
// loss, though it reached the floor, is not offered: the sweep notes the sender's best rate
// (sender_ceiling_fps) and goes on to the next load, for the verdict rests on the loads at or
// below the floor; a sender short of the floor itself ends the sweep as not measurable. The first
// step is also the tester's ceiling probe (the search's rule): a sender that stays below
// required_fps there ends the sweep as not measurable on this bench. So does a step at or below
// required_fps whose frames were lost beyond the DUT's port, or a first step whose receiver counted
// less than it (the search's receiver rule): the bench cannot tell there whether the port keeps the
// floor.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "hil/measure/rfc2544_search.hpp"

namespace hil::measure {

struct loss_sweep_options {
  double max_fps = 0;                 // the media maximum, the first step
  double step = 0.10;                 // each step lowers the load by this share of max_fps
  double accepted_loss = 0;           // a step is loss-free at loss_ratio() ≤ this
  double schedule_tolerance = 0.001;  // as search_options'
  std::chrono::milliseconds trial_duration{1000};
  int invalid_retries = 2;
  frame_direction direction = frame_direction::dut_transmits;  // who sends: named when short
  double required_fps = 0;  // the check's floor: the ceiling probe's need; 0: neither rule
};

struct loss_step {
  trial_record trial;  // passed: loss-free by accepted_loss
  double load = 0;     // the offered load as a share of max_fps (1.0, 0.9, …)
};

struct loss_sweep_result {
  std::vector<loss_step> steps;      // in the order run, each load once (its last measurement)
  std::vector<trial_record> trials;  // every trial run, retries included
  bool settled = false;              // two successive loss-free steps ended the sweep
  std::optional<std::string> tool_limited;       // as search_result's; the sweep stopped there
  std::optional<tester_ceiling> not_measurable;  // as search_result's
  // Set when a step above the floor was not offered, its sender short of it without loss: the
  // best rate that sender reached. Such a step is in trials, not in steps.
  std::optional<double> sender_ceiling_fps;
};

// The sweep above. Throws std::invalid_argument for options it cannot use (max_fps ≤ 0, a step
// outside (0, 0.1] — RFC 2544 asks steps of at most 10 % — accepted_loss outside [0, 1)).
[[nodiscard]] loss_sweep_result sweep_frame_loss(const loss_sweep_options& options,
                                                 const trial_runner& run);

}  // namespace hil::measure
