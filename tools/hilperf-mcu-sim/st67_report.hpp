// The ST67W6X firmware's report of a finished run, written from what stock iPerf 2 printed about
// it (iperf2_text.hpp), in the firmware's own lines (st67_text.hpp). Pure.
//
//   client: [-i interval lines] summary; UDP: the jitter/loss pair from the server's report
//   server: summary (UDP: megabytes misprinted) ; UDP: the lost/total pair
//
// Without figures (the run was stopped before iPerf 2 reported) it is empty.
#pragma once

#include <string>
#include <vector>

#include "iperf2_text.hpp"
#include "iperf_args.hpp"

namespace hil::mcu_sim {

// The report lines (without line ends, without "iperf exit") of the run args described by text.
[[nodiscard]] std::vector<std::string> st67_report(const iperf_args& args,
                                                   const iperf2_run_text& text);

// True when text shows the run args is over: a client's own summary came (the caller also waits
// for the program to exit), a UDP server's report line, a TCP server's summary.
[[nodiscard]] bool st67_run_over(const iperf_args& args, const iperf2_run_text& text);

}  // namespace hil::mcu_sim
