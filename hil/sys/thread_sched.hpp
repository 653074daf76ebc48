// How the calling thread spent its time, as the scheduler counts it (/proc/thread-self/schedstat,
// CONFIG_SCHED_INFO): time running on a CPU, and time runnable but waiting for one. A thread
// waits when other tasks hold the CPUs, and also while a CFS quota throttles its cgroup (the
// kernel keeps it queued), so on-CPU + waiting over a window is the share of the window the thread
// wanted a CPU; the rest it slept (on a socket, a timer). A data thread that wanted a CPU all the
// time never waited for the network: the CPU, not the link, set its rate.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace hil::sys {

struct thread_sched_times {
  std::chrono::nanoseconds on_cpu{0};   // schedstat's first field: time on a CPU
  std::chrono::nanoseconds waiting{0};  // its second: time runnable on a run queue
};

// The first two fields of a schedstat line ("274406862 745061082 14\n"); nullopt when text does
// not start with two numbers.
std::optional<thread_sched_times> parse_thread_schedstat(std::string_view text);

// The calling thread's times now; nullopt when the kernel offers no schedstat (or it cannot be
// read). Never throws: a figure the kernel lacks is left out, not an error.
std::optional<thread_sched_times> this_thread_sched_times() noexcept;

}  // namespace hil::sys
