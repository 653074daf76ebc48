// The Rfc2544 verdicts (docs/checks.md "Rfc2544"): a throughput search's answer held against the
// profile's share of the media maximum, with the likely cause when it falls short — the sender's
// own limit (never the port's figure), a frame that never arrives (MTU, jumbo), or a port that
// loses frames below its line rate (the DUT's driver, DMA ring or interrupt rate at small frames);
// a frame loss sweep held against the same floor (no loss at or below it); the longest
// back-to-back burst held against a share of the longest burst tried.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hil/measure/frame_path.hpp"
#include "hil/measure/latency_histogram.hpp"
#include "hil/measure/rfc2544_burst.hpp"
#include "hil/measure/rfc2544_loss.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/measure/verdict.hpp"

namespace hil::measure {

struct frame_limits {
  std::uint32_t frame_bytes = 0;
  double line_mbps = 0;  // the media maximum's line rate
  double media_max_fps = 0;
  double min_percent = 0;    // throughput: pass at ≥ this % of media_max_fps; loss: the floor
  double accepted_loss = 0;  // the search's pass criterion (0: zero loss)
  frame_path path;           // names the check ("frame64_dut_receives") and words its causes
};

// Each check is named by its frame size and path: "Rfc2544Throughput frame64",
// "Rfc2544Throughput frame512_ipv6_dut_receives".
//
// "Rfc2544Throughput frame64": passes when the search found a rate of at least min_percent of the
// media maximum. The observed figure is that share in %; a search stopped by the sender's limit,
// or one that found no rate at all, fails with its cause.
[[nodiscard]] verdict check_frame_throughput(const frame_limits& l, const search_result& r);

// Why a check is not measurable on this bench (c from the search, the sweep or probe_ceiling):
// "not measurable on this bench: " and the tester's ceiling against what the check needs, in
// frames/s and % of l's media maximum, what sets that need (need: the profile key or the rule),
// whose sender it was (or, for the receiver's ceiling, that the DUT's port sent what the receiver
// lost) and what would lift the ceiling. The case's skip says it; no verdict is made. Only l's
// frame, line rate, media maximum and path are read.
[[nodiscard]] std::string not_measurable_words(const frame_limits& l, const tester_ceiling& c,
                                               std::string_view need = "rfc2544.min_percent");

// "Rfc2544FrameLoss frame64": the frame loss rate of every step at or below min_percent of the
// media maximum (the throughput floor) must be at most accepted_loss. The observed figure is the
// worst such step's loss in %; 0 when the sweep settled above the floor (two loss-free steps: no
// lower load loses more, as RFC 2544 assumes). A sweep stopped by the sender's limit fails with it.
[[nodiscard]] verdict check_frame_loss(const frame_limits& l, const loss_sweep_result& r);

struct back_to_back_limits {
  std::uint32_t frame_bytes = 0;
  double line_mbps = 0;
  double media_max_fps = 0;      // the bursts' rate
  std::uint64_t max_frames = 0;  // the longest burst tried
  double min_percent = 100;      // pass: the average longest burst ≥ this % of max_frames
  frame_path path;
};

// "Rfc2544BackToBack frame64": the repeats' average longest whole burst, in frames, at least
// min_percent of max_frames. Says when the sender's gaps were wider than the minimum. A result
// not measurable (the tester's ceiling below line rate) fails with no figure, the words above.
[[nodiscard]] verdict check_back_to_back(const back_to_back_limits& l, const burst_result& r);

// One latency trial (RFC 2544 §26.2, as the cases measure it): a stream of frames at a load, and
// ICMP echo requests of the same frame size sent through the port meanwhile, each answered by the
// peer's host, timed as a round trip.
struct latency_trial {
  trial_outcome stream;
  std::chrono::milliseconds duration{0};  // the stream's
  // The time the probes were sent over, inside the stream (0: the stream's duration).
  std::chrono::milliseconds probe_window{0};
  int probes_sent = 0;
  int probes_received = 0;
  latency_summary round_trip;  // of the answered probes
  // Set when the stream fell short and the tester's ceiling (probe_ceiling) was below the load.
  std::optional<tester_ceiling> not_measurable;
};

struct latency_limits {
  std::uint32_t frame_bytes = 0;
  double line_mbps = 0;
  double media_max_fps = 0;
  double load_percent = 0;  // the stream and probes together, % of the media maximum
  double median_ms = 0;     // pass: the probes' median round trip ≤ this
  double accepted_loss = 0;
  frame_path path;
};

// "Rfc2544Latency frame64": the probes' median round trip at most median_ms while the port carries
// the load (a standing queue delays every probe; the median, as RFC 2544's average of its trials,
// is not decided by one stall of the sender, which the p99 of a few dozen probes would be: it is
// reported beside it), every probe answered and the stream within the accepted loss (at a load the
// port must carry, a lost frame is the port's fault, and a latency of what got through would hide
// it). A sender that fell short of the load fails as the tool's limit: the latency of a lighter
// load is not the port's at this one. A trial not measurable fails with no figure (as above).
[[nodiscard]] verdict check_frame_latency(const latency_limits& l, const latency_trial& t);

}  // namespace hil::measure
