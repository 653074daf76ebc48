// The figures Zephyr's zperf prints about a run (zperf_text.hpp's results), taken from what stock
// iPerf 2 printed about the same traffic (iperf2_text.hpp). Pure.
//
//   upload:   the client's own line (its time, what it sent) + the server's report (what the peer
//             counted, its time, loss, jitter); none: the server's figures zero
//   session:  the server's line of one session (UDP: with loss and jitter)
#pragma once

#include <cstdint>

#include "iperf2_text.hpp"
#include "zperf_text.hpp"

namespace hil::mcu_sim::zperf {

// An upload's results from its stock client's text.
[[nodiscard]] results upload_results(const upload& u, const iperf2_run_text& text);

// A download session's results from its stock server's figures line (out_of_order: the server's
// out-of-order count for it).
[[nodiscard]] results session_results(const iperf2_figures& figures, std::uint64_t out_of_order);

}  // namespace hil::mcu_sim::zperf
