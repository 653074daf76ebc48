// RFC 2544 §26.4 back-to-back frames: the longest burst of frames at the minimum gap (the media
// maximum's rate) that arrives whole. Per repeat, a burst of max_frames first; when it loses
// frames, a binary search on the burst length between the longest whole and the shortest lossy
// burst, to a resolution; the repeats' longest bursts give an average and a spread. The search
// knows no sockets: a burst is a callable (hil/traffic runs them), so scripted outcomes test it.
//
// A sender that cannot keep the media maximum sends its burst with wider gaps than the minimum;
// the burst is still judged (a whole burst is whole at the gaps the DUT itself can make, and a
// lost frame is lost at no more than line rate), and each burst records whether it was at line
// rate, so the report can say the gaps were the sender's.
//
// When the DUT sends, a burst may carry its port's count of frames out (trial_outcome's
// port_carried): a lossy burst whose frames were lost beyond the port (lost_beyond_port: the
// receiving end could not take what the port sent) ends the search as not measurable, naming the
// receiver: the bench cannot tell how long a burst the port carries whole.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "hil/measure/rfc2544_search.hpp"

namespace hil::measure {

struct burst_options {
  double line_fps = 0;                // the media maximum: frames at the minimum gap
  std::uint64_t max_frames = 0;       // the longest burst tried (RFC 2544: 2 s of them at least)
  double resolution = 0.01;           // stop when hi − lo ≤ max(1 frame, resolution × hi)
  int repeats = 1;                    // RFC 2544 asks 50
  double line_rate_tolerance = 0.01;  // a burst at ≥ line_fps × (1 − this) was at line rate
};

struct burst_trial {
  trial_outcome outcome;
  std::uint64_t frames = 0;  // the burst's length
  int repeat = 0;            // 0-based
  bool passed = false;       // every frame arrived
  bool at_line_rate = true;  // the sender kept the minimum gap
};

struct burst_result {
  std::vector<std::uint64_t> longest;  // per repeat: the longest whole burst (0: none)
  std::vector<burst_trial> trials;     // in the order run
  // Set, with nothing else, when the tester's ceiling (probe_ceiling) was below line rate: a
  // burst of the sender's gaps says nothing of the DUT's queues, so none was searched. Set after
  // the bursts run so far when one lost frames beyond the port (the receiver's ceiling: what it
  // counted per second of the burst, against line rate).
  std::optional<tester_ceiling> not_measurable;

  [[nodiscard]] double average() const;
  [[nodiscard]] double spread() const;  // the repeats' sample standard deviation (0 for one)
  // The slowest rate a sender sent a burst at below line rate; 0 when every burst was at it.
  [[nodiscard]] double slowest_below_line_rate() const;
};

// Sends one burst of frames at fps and reports it. May throw; the search passes it on.
using burst_runner = std::function<trial_outcome(double fps, std::uint64_t frames)>;

// The search above. Throws std::invalid_argument for options it cannot use (line_fps ≤ 0,
// max_frames < 1, resolution outside (0, 1), repeats < 1).
[[nodiscard]] burst_result find_back_to_back(const burst_options& options, const burst_runner& run);

}  // namespace hil::measure
