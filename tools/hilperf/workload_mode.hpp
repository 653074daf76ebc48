// hilperf --workload TCP_RR|TCP_CRR|UDP_RR: netperf's request/response tests against a
// hilperf-peer (the hilperf extension), with latency percentiles.
#pragma once

#include "hil/session/workload_client.hpp"

// Runs one workload and prints its summary (or JSON). Returns the exit code: 0 done, 1 failed,
// 3 the peer does not offer the extension (a stock iperf3 server).
int run_workload_mode(const hil::session::workload_options& o, bool json);
