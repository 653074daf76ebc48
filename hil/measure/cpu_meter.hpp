// CPU utilisation of this process as iperf3 reports it (cpu_util in src/iperf_util.c): process
// CPU time over monotonic wall time since the test started, × 100, user and system separately.
// It is a share of one core, so a process whose threads keep several cores busy exceeds 100.
// The clocks are read through an injectable sampler, so tests drive it with fake times.
#pragma once

#include <chrono>
#include <functional>

#include "hil/measure/results.hpp"

namespace hil::measure {

class cpu_meter {
 public:
  // One reading of the clocks; only differences between readings matter.
  struct cpu_times {
    std::chrono::nanoseconds wall{0};    // monotonic wall clock
    std::chrono::nanoseconds user{0};    // process CPU time in user mode, all threads
    std::chrono::nanoseconds system{0};  // process CPU time in the kernel, all threads
  };
  using sampler = std::function<cpu_times()>;

  // Records the start with one reading of s; throws std::invalid_argument if s is empty.
  explicit cpu_meter(sampler s = real_sampler());

  // Utilisation from the start to now: user, system and total = user + system, in percent of
  // one core; all 0 when no wall time has passed.
  [[nodiscard]] cpu_usage usage() const;

  // getrusage(RUSAGE_SELF) for user and system time plus steady_clock for wall time; the
  // returned sampler throws std::system_error if getrusage fails.
  [[nodiscard]] static sampler real_sampler();

 private:
  sampler sampler_;
  cpu_times start_;
};

}  // namespace hil::measure
