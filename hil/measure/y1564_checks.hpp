// The Y.1564 service configuration verdict (docs/checks.md "Y1564"): a service of one frame size
// offered in steps of its committed information rate (CIR: 25, 50, 75 and 100 % by default), each
// step a stream with ICMP echo probes inside it (as the Rfc2544 latency trial), each step held
// against the service acceptance criteria — frame loss ratio (FLR), frame transfer delay (FTD: the
// probes' median round trip) and frame delay variation (FDV: their p99 less their minimum) — with
// the information rate (IR) received beside the rate offered. A step whose sender fell short of
// its rate is the tool's limit, never the port's figure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hil/measure/rfc2544_checks.hpp"
#include "hil/measure/verdict.hpp"

namespace hil::measure {

struct y1564_limits {
  std::uint32_t frame_bytes = 0;
  double line_mbps = 0;
  double media_max_fps = 0;
  double cir_mbps = 0;     // Mbit/s of whole Ethernet frames (destination address to FCS)
  double flr_percent = 0;  // pass: each step's frame loss ratio ≤ this
  double ftd_ms = 0;       // pass: each step's median round trip ≤ this
  double fdv_ms = 0;       // pass: each step's p99 − minimum round trip ≤ this
  frame_path path;         // names the check ("Y1564 frame512_dut_receives"), words its causes
};

// One step: its share of the CIR and what the stream and the probes measured at it.
struct y1564_step {
  double percent = 0;  // of the CIR
  latency_trial trial;
};

// The step's offered rate in frames/s: percent of the CIR in frames of l.frame_bytes.
[[nodiscard]] double step_fps(const y1564_limits& l, double percent);

// The information rate a step delivered, Mbit/s of whole frames: the stream's frames received
// over its duration plus the probes answered over their window (each × frame bytes × 8), so a
// step that lost nothing delivers the rate it offered.
[[nodiscard]] double information_rate_mbps(const y1564_limits& l, const y1564_step& s);

// One step's FTD (the probes' median round trip) and FDV (their p99 less their minimum), in ms.
[[nodiscard]] double ftd_ms(const y1564_step& s);
[[nodiscard]] double fdv_ms(const y1564_step& s);

// One step's FLR in % (the stream's and the probes' frames together).
[[nodiscard]] double frame_loss_percent(const y1564_step& s);

// "Y1564 frame512 step 75%": the step's FLR, FTD and FDV within the limits, every probe answered
// where FLR accepts no loss, and the sender on schedule.
[[nodiscard]] verdict check_y1564_step(const y1564_limits& l, const y1564_step& s);

// "Y1564 frame512": passes when every step passes; observed says how far the steps passed and
// lists every step's figures, and a failure names the first failing step with its cause. The
// observed figure is the highest step (% of CIR) that passed with every lower step (0 when the
// first failed). not_measurable (the tester's ceiling below the highest step, probe_ceiling)
// fails with no figure and rfc2544_checks.hpp's not_measurable_words as its cause.
[[nodiscard]] verdict check_y1564(const y1564_limits& l, const std::vector<y1564_step>& steps,
                                  const std::optional<tester_ceiling>& not_measurable = {});

}  // namespace hil::measure
