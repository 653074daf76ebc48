// A stream of frames with ICMP echo probes of the same frame size inside it, for the cases that
// time frames through a loaded port (Rfc2544 latency, Y1564 steps; docs/checks.md). The probes are
// at most a given share of the frames and 100 a second (at least one probe), and the stream offers
// the rest of the load; they run from a tenth of the stream (and its set-up) to its last tenth,
// answered by the peer's host, each timed as a round trip by its kernel receive stamp.
#pragma once

#include <chrono>
#include <string>

#include "hil/measure/latency_histogram.hpp"
#include "hil/measure/rfc2544_checks.hpp"
#include "hil/session/frame_trial.hpp"

namespace hil::cases {

struct probed_trial {
  measure::latency_trial trial;            // the stream, the probes' counts and round trips
  measure::latency_histogram round_trips;  // of the answered probes
  std::chrono::milliseconds interval{0};   // between probes
};

// Runs it: the stream with t's client at total_fps less the probes' rate for duration, the
// probes (probe_share of total_fps at most, 0 < probe_share < 1; ICMPv6 when t's frames are IPv6)
// to t's peer (t.base.host) through ifname, whichever way the stream goes (-R: the peer sends).
// Bounded by the stream and one probe's timeout. Throws what the stream's trial throws (after the
// probes are done).
[[nodiscard]] probed_trial run_probed_trial(const session::frame_trial_options& t,
                                            const std::string& ifname, double total_fps,
                                            double probe_share, std::chrono::milliseconds duration);

}  // namespace hil::cases
