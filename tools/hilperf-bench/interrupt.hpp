// SIGINT, SIGTERM and SIGHUP end hilperf-bench cleanly: the handler only sets a flag, and the next
// wait on a client throws, so every RAII owner unwinds — the clients and servers (child_process
// stops their process groups, which a terminal's ^C does not reach), the 1 Gbit/s shaping, the
// cgroup and the bench's namespaces. Without it a signal left "hilperf-c<pid>-*" namespaces and
// the "hilperf-bench<pid>" cgroup behind.
#pragma once

#include <chrono>
#include <optional>

#include "hil/sys/child_process.hpp"

namespace hil::bench_tool {

// Installs the handlers (once, at the start of main).
void catch_stop_signals();

// Waits up to timeout for c to exit, checking for a stop signal every 100 ms. Returns its exit
// status, nullopt on timeout; throws std::runtime_error("interrupted by signal N") once a stop
// signal arrived (c is stopped by its owner as the stack unwinds).
std::optional<int> wait_unless_interrupted(sys::child_process& c,
                                           std::chrono::milliseconds timeout);

}  // namespace hil::bench_tool
