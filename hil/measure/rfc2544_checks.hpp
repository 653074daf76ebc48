// The Rfc2544 verdicts (docs/checks.md "Rfc2544"): a throughput search's answer held against the
// profile's share of the media maximum, with the likely cause when it falls short — the sender's
// own limit (never the port's figure), a frame that never arrives (MTU, jumbo), or a port that
// loses frames below its line rate (the DUT's driver, DMA ring or interrupt rate at small frames).
#pragma once

#include <cstdint>

#include "hil/measure/rfc2544_search.hpp"
#include "hil/measure/verdict.hpp"

namespace hil::measure {

struct frame_throughput_limits {
  std::uint32_t frame_bytes = 0;
  double line_mbps = 0;  // the media maximum's line rate
  double media_max_fps = 0;
  double min_percent = 0;    // pass: throughput ≥ this % of media_max_fps
  double accepted_loss = 0;  // the search's pass criterion (0: zero loss)
};

// "Rfc2544Throughput frame64": passes when the search found a rate of at least min_percent of the
// media maximum. The observed figure is that share in %; a search stopped by the sender's limit,
// or one that found no rate at all, fails with its cause.
[[nodiscard]] verdict check_frame_throughput(const frame_throughput_limits& l,
                                             const search_result& r);

}  // namespace hil::measure
