// How busy the machine was over a window: CPU pressure, and the processes that used the CPU.
//
// The test procedure's figures hold only when "no other high-load tasks are running on the client
// or server during testing". A case measures that instead of assuming it:
//
//   cpu_pressure_meter m;        // snapshot: pressure counter, CPU time of every process
//   … the measurement …
//   bench_pressure p = m.finish();   // pressure over the window, busiest other processes
//
// Pressure is Linux PSI's `some` line of /proc/pressure/cpu: the share of wall time in which at
// least one runnable task waited for a CPU (docs/quiet-bench.md). Where the kernel has no PSI the
// meter falls back to /proc/schedstat: the time tasks spent waiting on the run queues, summed over
// all CPUs, over the window times the number of CPUs — a coarser figure, named as such in source.
// The process list comes from /proc/<pid>/stat (utime + stime of all threads). The calling process,
// its children and the bench's own programs (on the simulated bench the peer server runs on this
// machine) are the measurement, not a disturbance: they are counted apart. PSI alone misses a
// disturbance that fits beside the measurement (a busy loop on one of two cores leaves our
// threads the other core and the pressure near 0 while it takes a whole core), so the CPU time of
// the other user-space processes is a figure of its own; kernel threads are listed but not
// counted there, since on the simulated bench they mostly carry the test's own packets.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hil::sys {

// One process's CPU time within a window.
struct process_cpu {
  pid_t pid = 0;
  std::string name;            // comm from /proc/<pid>/stat, e.g. "cc1plus"
  double cpu_seconds = 0.0;    // user + system time of all its threads within the window
  bool kernel_thread = false;  // a kernel thread (kworker, ksoftirqd): listed, not counted
};

// The machine's CPU pressure over one window.
struct bench_pressure {
  double some_percent = 0.0;         // share of the window in which a runnable task waited
  std::string source;                // "psi" (/proc/pressure/cpu) or "schedstat" (fallback)
  double window_seconds = 0.0;       // the window's wall time
  std::vector<process_cpu> busiest;  // other processes by CPU time, most first, at most 3
  double others_cpu_seconds = 0.0;   // CPU time of the other user-space processes
  double bench_cpu_seconds = 0.0;    // CPU time of the bench's own programs and our children

  // The other user-space processes' CPU time in percent of one core over the window.
  [[nodiscard]] double others_cpu_percent() const;
  // "31.0 % CPU pressure, other processes 98 % of a core over 5.2 s (psi); busiest other
  // processes: cc1plus 1.70 s, sh 0.90 s"
  [[nodiscard]] std::string describe() const;
};

// The `total=` microseconds of the `some` line of /proc/pressure/cpu; nullopt when text has none.
std::optional<std::uint64_t> parse_psi_some_total_us(std::string_view text);

// The run-queue wait of /proc/schedstat summed over its cpuN lines (the 8th field, nanoseconds),
// and how many cpuN lines there were; nullopt when text has none.
struct schedstat_wait {
  std::uint64_t wait_ns = 0;
  int cpus = 0;
};
std::optional<schedstat_wait> parse_schedstat(std::string_view text);

// comm and utime + stime in clock ticks from one /proc/<pid>/stat line (comm may hold spaces and
// parentheses: it ends at the last ')'); nullopt for a line that does not parse.
struct proc_stat {
  std::string name;
  pid_t ppid = 0;
  bool kernel_thread = false;  // PF_KTHREAD in the flags field
  std::uint64_t cpu_ticks = 0;
};
std::optional<proc_stat> parse_proc_stat(std::string_view line);

// The process CPU times that grew between two snapshots, largest first; pids only in `after` count
// from zero (they started within the window).
std::vector<process_cpu> cpu_growth(const std::map<pid_t, proc_stat>& before,
                                    const std::map<pid_t, proc_stat>& after, double tick_seconds);

// Measures one window from construction to finish(). Reading /proc never throws: a counter the
// kernel does not offer leaves the figure at 0 with source "none".
class cpu_pressure_meter {
 public:
  cpu_pressure_meter();

  // The pressure from construction to now; may be called more than once. bench_programs are the
  // names (comm) of the bench's own programs, counted with this process and its children.
  [[nodiscard]] bench_pressure finish(const std::vector<std::string>& bench_programs = {}) const;

 private:
  struct snapshot {
    std::chrono::steady_clock::time_point at;
    std::optional<std::uint64_t> psi_some_us;
    std::optional<schedstat_wait> schedstat;
    std::map<pid_t, proc_stat> processes;
  };
  static snapshot take();

  snapshot start_;
};

}  // namespace hil::sys
