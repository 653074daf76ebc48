// RFC 2544 §26.1 throughput: the highest offered frame rate at which no frame is lost (or, as an
// option, at most an accepted loss ratio: TRex's "PDR"), found by a binary search between the
// last passing and the first failing rate, to a resolution, then confirmed by a longer trial. The
// search knows no sockets: a trial is a callable (hil/traffic runs them), so scripted outcomes
// test it.
//
//   trial at the media maximum ── passes ──▶ done: the port carries line rate
//        │ fails
//        ▼
//   [lo = 0, hi = max]: trial at (lo + hi) / 2, pass → lo, fail → hi, until hi − lo ≤ resolution
//        │    (the verdict's own rate first, while it lies between lo and hi: need_point)
//        ▼
//   confirmation trial at lo (confirm_duration) ── fails ──▶ hi = lo, lo = 0: the search again
//                                                              with confirmation-length trials
//
// A trial whose sender did not keep the schedule (sent fewer frames than offered_fps × duration
// by more than schedule_tolerance and one frame of rounding) is invalid and measured again, lossy
// or not: a sender that stalled catches up in bursts above the offered rate, which a shaped port's
// queue may lose although it carries the rate paced. So is a trial that lost no more frames than
// its sender, this process, held overdue at once (loss_within_catch_up): it kept the count, but
// not the constant load. After invalid_retries more, a point whose last trial still lost frames
// fails (the port lost them at no more than the offered rate); one without loss stops the search
// (without a need; with one, below), which says the tool or the DUT's CPU was the limit, since a
// loss-free figure below the offered rate would be the sender's, not the port's.
//
// The first trial, at the media maximum, is also the tester's ceiling: a sender that cannot keep
// that schedule sends as fast as it can, unpaced in effect. When options name the rate the verdict
// needs (required_fps) and the sender stays below it, measured again up to invalid_retries more
// times, the search stops at once as not measurable on this bench: nothing it could find would be
// the port's pass or failure, only the tester's (docs/checks.md "Rfc2544").
//
// A sender that reaches the need but not above it caps the search instead: a point above the need
// whose sender fell short without loss every time, once the sender has offered the need (the first
// trial reached it, or a trial at it passed), is the top of what this bench offers. The search
// takes it as its upper bound (hi) and goes on below; the answer is then a lower bound of the
// port's throughput, with the sender's best rate beside it (sender_ceiling_fps). A sender short
// without loss that has not shown it reaches the need (at or below the need, say) cannot offer
// what the verdict needs, paced: not measurable, as at the first trial — unless the port has
// already lost frames at or below the need (a failed point there): the verdict is then known, and
// a short sender anywhere caps the search as above, the answer a lower bound below that failure.
// Only a search without a need (required_fps 0) still stops at a short sender as its limit
// (tool_limited).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hil/measure/frame_path.hpp"

namespace hil::measure {

// What one trial did: what it offered, what the sender managed, what arrived.
struct trial_outcome {
  double offered_fps = 0;
  double sent_fps = 0;  // the rate the sender achieved over the trial
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
  // What the DUT's port counted out during the trial (its tx_packets growth: the trial's frames
  // and any other frame it sent, the control connection's segments among them), when the DUT sent
  // and its counters were read; nullopt otherwise.
  std::optional<std::uint64_t> port_carried;
  // When this process sent the trial: the most frames its sender held overdue at once
  // (stream_totals::most_overdue). A sender that fell behind caught up above the offered rate, a
  // burst of up to that many frames beyond the schedule's. nullopt when a peer sent.
  std::optional<std::uint64_t> sender_overdue;
  [[nodiscard]] double loss_ratio() const {
    return sent == 0
               ? 0
               : static_cast<double>(sent - std::min(sent, received)) / static_cast<double>(sent);
  }
  // Frames the receiver counted per second of a trial lasting duration (0 for none).
  [[nodiscard]] double received_fps(std::chrono::milliseconds duration) const;
  // Frames were lost beyond the DUT's port: it counted out at least every frame sent (none lost
  // inside the DUT), and more than foreign_frame_allowance beyond what the receiver counted (more
  // than the trial's other frames can account for). False without port_carried.
  [[nodiscard]] bool lost_beyond_port() const;
  // Frames were lost, no more than the sender held overdue at once: it fell behind and caught up
  // above the offered rate, and that burst may have cost them where the port carries the constant
  // load (a 100 ms stall of a sender's CPU, then 2,200 frames/s: 220 frames on top of the
  // schedule). False when a peer sent (sender_overdue unknown).
  [[nodiscard]] bool loss_within_catch_up() const;
};

// The most frames other than a trial's own that the DUT's port may send during one: the control
// connection's segments (a score), neighbour discovery, a console over the port. Within it, a
// shortfall between the port's count and the receiver's is put down to the DUT, as without a count.
inline constexpr std::uint64_t foreign_frame_allowance = 100;

struct search_options {
  double max_fps = 0;                 // the media maximum (frames.hpp), the first trial
  double resolution = 0.001;          // stop when hi − lo ≤ resolution × max_fps
  double accepted_loss = 0;           // a trial passes with loss_ratio() ≤ this (0: zero loss)
  double schedule_tolerance = 0.001;  // sent + 1 ≥ offered × duration × (1 − this), or invalid
  std::chrono::milliseconds trial_duration{1000};
  std::chrono::milliseconds confirm_duration{10'000};  // RFC 2544 asks 60 s: the nightly set
  // A trial whose sender fell short is measured again this many times before the search stops
  // (a stall of the sender's CPU is not the port's doing; a sender always short is the limit).
  int invalid_retries = 2;
  int max_trials = 40;                                         // search and confirmations together
  frame_direction direction = frame_direction::dut_transmits;  // who sends: named when short
  // The lowest rate the verdict needs offered (its pass limit), for the ceiling check of the first
  // trial; 0: no check.
  double required_fps = 0;
};

// Which end of the bench fell short: the sender could not offer the rate, or the receiver could
// not count the frames the DUT's port carried.
enum class tester_end { sender, receiver };

// "sender" / "receiver", as records spell them; the parse returns false (out unchanged) for any
// other word.
[[nodiscard]] const char* tester_end_name(tester_end e);
[[nodiscard]] bool parse_tester_end(const std::string& word, tester_end& out);

// What a bench's sender could offer, or its receiver count, against what a check needs: set when
// it could not.
struct tester_ceiling {
  double ceiling_fps = 0;   // the best rate that end reached (the receiver's: frames counted/s)
  double required_fps = 0;  // the lowest rate the check needs offered (and counted)
  tester_end end = tester_end::sender;
};

// The receiving end's ceiling for a trial at a load the check needs carried (a Latency stream, a
// Y1564 step): set when more than accepted_loss of t's frames were lost beyond the DUT's port
// (lost_beyond_port), with what the receiver counted per second over duration against need_fps.
[[nodiscard]] std::optional<tester_ceiling> receiver_ceiling(const trial_outcome& t,
                                                             std::chrono::milliseconds duration,
                                                             double accepted_loss, double need_fps);

// The DUT's transmit path calibrated on a frame path below the socket layer: the most frames per
// second it put onto the link unpaced (the interface's tx_packets growth, no more than its ring or
// syscall took), and the path, "af_xdp (copy)". Below the media maximum the search runs up to it,
// and below what the check needs the case ends there: the DUT's transmit path, not the link.
struct transmit_ceiling {
  double fps = 0;
  std::string path;
};

struct trial_record {
  trial_outcome outcome;
  std::chrono::milliseconds duration{0};
  bool passed = false;
  bool confirmation = false;  // run for confirm_duration
  // The sender kept the schedule, and no loss beyond the accepted lay within its catch-up (else
  // measured again, or the end).
  bool valid = true;
};

struct search_result {
  std::optional<double> throughput_fps;  // the highest confirmed passing rate; none found: nullopt
  std::vector<trial_record> trials;      // in the order run
  // Set when a trial's sender fell short: the offered and achieved rates, and that the tool or
  // the DUT's CPU, not the link, is the limit. The search stopped there.
  std::optional<std::string> tool_limited;
  // Set when the first trial's sender stayed below options.required_fps: the search stopped there,
  // and the check is not measurable on this bench.
  std::optional<tester_ceiling> not_measurable;
  // Set with throughput_fps when the rate above it was the sender's cap, not a loss: the best rate
  // the capped points' sender reached. throughput_fps is then a lower bound of the port's.
  std::optional<double> sender_ceiling_fps;
  // Set by the case when it calibrated the DUT's transmit path (not by the search): the search's
  // max_fps was min(its fps, the media maximum), and none ran when below the check's need.
  std::optional<transmit_ceiling> transmit;
};

// Whether a trial lost more than accepted_loss, all of it within its sender's catch-up
// (trial_outcome::loss_within_catch_up): not the constant load it claims, so measured again (a
// search's point, a Latency stream, a Y1564 step), up to point_rule::invalid_retries more times.
[[nodiscard]] bool lost_to_catch_up(const trial_outcome& t, double accepted_loss);

// Whether a trial's sender kept its schedule over duration: it sent at least offered_fps ×
// duration × (1 − tolerance) frames, less one of rounding at the trial's ends.
[[nodiscard]] bool kept_schedule(const trial_outcome& t, std::chrono::milliseconds duration,
                                 double tolerance);

// The words of a search or sweep stopped by a sender that fell short without loss: the rates, and
// whose limit it was (frame_path.hpp's sender_limit_words).
[[nodiscard]] std::string tool_limited_words(const trial_outcome& t, frame_direction d);

// The rate the search offers a trial at the verdict's own rate at: required_fps rounded up to the
// next whole frame per second (0 for none), so the percentage of the media maximum a check derives
// from a pass there is not a rounding below its limit.
[[nodiscard]] double need_point(double required_fps);

// Runs one trial at fps for duration and reports it. May throw; the search passes it on.
using trial_runner = std::function<trial_outcome(double fps, std::chrono::milliseconds duration)>;

// The rule every point of a search or sweep is measured by.
struct point_rule {
  double accepted_loss = 0;
  double schedule_tolerance = 0.001;
  int invalid_retries = 2;
  frame_direction direction = frame_direction::dut_transmits;
  double required_fps = 0;  // > 0: the point is a ceiling probe (see the search's rule above)
  // The rate the verdict needs: a point at or below it whose frames were lost beyond the port is
  // not measurable (0: no such rule).
  double need_fps = 0;
};

// How one point ended: a measurement that counts (its sender kept the schedule, or frames were
// lost), else the sender's limit or, for a ceiling probe, the tester's ceiling.
struct point_outcome {
  std::optional<trial_record> counted;
  std::optional<std::string> tool_limited;
  std::optional<tester_ceiling> not_measurable;
  double best_sent_fps = 0;  // the best rate the point's senders reached, set with tool_limited
};

// Measures one point: a trial at fps for duration, measured again while its sender fell short
// (lossy or not; for a ceiling probe, short of rule.required_fps), its loss was within its
// sender's catch-up (trial_outcome::loss_within_catch_up) or its frames were lost beyond the
// port where the verdict hangs on them (the rule above), up to rule.invalid_retries more
// times. A point whose sender was short every time counts as failed when the last trial lost
// frames, else it is the sender's limit. Every trial run is appended to trials. May throw what
// run throws.
[[nodiscard]] point_outcome measure_point(const point_rule& rule, double fps,
                                          std::chrono::milliseconds duration, bool confirmation,
                                          const trial_runner& run,
                                          std::vector<trial_record>& trials);

// For a point that ended at the sender's limit (tool_limited) where the verdict needs
// required_fps: nullopt when the point caps the search or sweep (it lies above need_point, and the
// sender has shown it reaches that: need_shown, or the point's own best rate), else the tester's
// ceiling it shows, the case not measurable.
[[nodiscard]] std::optional<tester_ceiling> ceiling_unless_capped(const point_outcome& p,
                                                                  double fps, double required_fps,
                                                                  bool need_shown);

// The search above. Throws std::invalid_argument for options it cannot use (max_fps ≤ 0,
// resolution outside (0, 1), accepted_loss outside [0, 1)).
[[nodiscard]] search_result find_throughput(const search_options& options, const trial_runner& run);

// The tester's ceiling probed for a check whose own trials cannot tell the tester's limit from
// the port's (BackToBack, Latency, Y1564): probe runs one trial of length at the media maximum (a
// sender that cannot keep it sends as fast as it can) and reports it; probed up to 1 + retries
// times, stopping at the first whose sender reached required_fps and whose receiver, when it lost
// frames beyond the port, still counted that many per second. nullopt when one did (the check can
// be performed), else the end that fell short with its best rate against the need. May throw what
// probe throws.
[[nodiscard]] std::optional<tester_ceiling> probe_ceiling(
    double required_fps, int retries, std::chrono::milliseconds length,
    const std::function<trial_outcome()>& probe);

}  // namespace hil::measure
