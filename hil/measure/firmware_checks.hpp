// Procedure 002's Tx/Rx rows with the DUT behind its console (docs/console-duts.md): the rate the
// receiving end counted against the row's minimum, and the firmware's own printed figure held
// beside it. The verdict rests on the count hilperf's iPerf 2 end made (or, for a row where the
// DUT receives UDP, the count the firmware sent back in iPerf 2's server report): the firmware's
// console text is a cross-check, since some firmwares print it with known defects.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hil/measure/verdict.hpp"

namespace hil::measure {

// One row's measurement.
struct firmware_row {
  bool udp = true;
  bool dut_sends = true;               // Tx: the DUT's firmware is the client
  double asked_mbps = 0;               // a UDP row's -b; 0 for TCP
  std::optional<double> counted_mbps;  // the receiving end's count over the run; none: no count
  std::string counted_by;              // "hilperf's iPerf 2 server", "the firmware's server report"
  std::optional<double> firmware_mbps;  // what the firmware printed; none: not printed
};

// The row's verdict: counted_mbps at least min_mbps (in Mbit/s, 10^6 bits/s). Failed without a
// figure when nothing was counted. The cause names the DUT's side (its firmware's sending or
// receiving path, its CPU or radio, the link) or, when a UDP client sent less than asked, that
// the firmware did not keep the rate.
[[nodiscard]] verdict check_firmware_row(const firmware_row& row, double min_mbps);

// The firmware's printed rate against the count, when it printed one and they differ by more than
// tolerance_percent of the count: words naming both and the difference; else nullopt.
[[nodiscard]] std::optional<std::string> firmware_disagreement(const firmware_row& row,
                                                               double tolerance_percent);

// A connectivity check through the firmware's ping: what it was asked and what it printed.
struct firmware_ping {
  std::string peer;                  // the PC's address
  unsigned asked = 0;                // echo requests
  unsigned replies = 0;              // the reply lines it printed
  std::optional<double> avg_rtt_ms;  // over those replies
  std::vector<std::string> errors;   // its failure lines
};

// Every request answered: replies == asked (the firmware's own summary is not read: its loss
// figure is divided by the replies). The cause of a failure names the DUT's side or the PC, and
// the firmware's first failure line.
[[nodiscard]] verdict check_firmware_ping(const firmware_ping& ping);

}  // namespace hil::measure
