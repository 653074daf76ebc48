// A board-like CPU for processes of the simulated bench: a cgroup of its own (the v1 controllers
// cpu and cpuacct, under /sys/fs/cgroup/cpu and /sys/fs/cgroup/cpuacct, or both at one place when
// they are mounted together; cgroup v2 is not supported) that caps its processes at a share of one
// core (the CFS quota: percent · 1 ms of every 100 ms period) and counts the CPU time they use,
// and, when asked, keeps them on given CPUs (the v1 cpuset controller, /sys/fs/cgroup/cpuset), so
// a bench's two ends run on CPUs of their own as two hosts do. The groups are made on construction
// and removed on destruction, so nothing of the host's cgroups stays changed.
//
// A process joins it by running through command(): a shell writes its own pid into the groups and
// then execs the command, so the command and everything it forks are inside before they start.
// Join before `ip netns exec`, which remounts /sys for the namespace and hides the host's cgroups.
// A task already running (a kernel thread doing a port's receive work) joins through adopt() and
// is put back in the root group on destruction.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace hil::sys {

class cpu_cgroup {
 public:
  // A group named hilperf-<tag><pid> capped at percent_of_a_core (1–100000; 100 is one whole
  // core), or uncapped (only counted) with 0; its tasks kept on cpus (a cpuset list such as "0" or
  // "1-3") unless cpus is empty. Throws std::system_error naming the file when the cgroup file
  // system refuses (not root, no v1 cpu, cpuacct or cpuset controller, a CPU that is not online),
  // std::invalid_argument for a percentage out of range; nothing is left made then.
  cpu_cgroup(const std::string& tag, int percent_of_a_core, const std::string& cpus = {});
  ~cpu_cgroup();  // removes the groups; a process still inside keeps one (printed to stderr)
  cpu_cgroup(const cpu_cgroup&) = delete;
  cpu_cgroup& operator=(const cpu_cgroup&) = delete;

  // argv run inside the groups (sh -c 'echo $$ > …/cgroup.procs … && exec "$@"').
  [[nodiscard]] std::vector<std::string> command(const std::vector<std::string>& argv) const;

  // Moves the running task tid (a thread or a kernel thread) into the groups until destruction,
  // which returns it to the root groups (a task that ended by then is skipped). Throws
  // std::system_error naming the file when the kernel refuses it.
  void adopt(pid_t tid);

  // CPU time every process that was ever inside used, user and system together, since the groups
  // were made (cpuacct.usage). Throws std::system_error when
  // the counter cannot be read.
  [[nodiscard]] std::chrono::nanoseconds used() const;

  // The same time split by where it was spent: in user space, and in the kernel (system calls,
  // and the interrupts and softirqs that struck while a task of the group ran): cpuacct.usage_user
  // and cpuacct.usage_sys, which the kernel keeps by its timer tick (a sample every 1/HZ s), so a
  // split of less than a few hundred ticks is rough. Throws std::system_error when a counter
  // cannot be read.
  struct mode_split {
    std::chrono::nanoseconds user{};
    std::chrono::nanoseconds kernel{};
    // What was spent between an earlier reading and this one.
    [[nodiscard]] mode_split operator-(const mode_split& earlier) const noexcept {
      return {user - earlier.user, kernel - earlier.kernel};
    }
  };
  [[nodiscard]] mode_split used_by_mode() const;

  // The cap this group was made with, 0 for none.
  [[nodiscard]] int percent_of_a_core() const noexcept { return percent_; }

  // The CPUs its tasks are kept on, empty for any.
  [[nodiscard]] const std::string& cpus() const noexcept { return cpus_; }

 private:
  std::vector<std::filesystem::path> dirs_;  // one per hierarchy the group lives in, cpu first
  std::filesystem::path usage_dir_;          // the one that counts CPU time
  int percent_;
  std::string cpus_;
  std::vector<pid_t> adopted_;  // tasks to return to the root groups
};

}  // namespace hil::sys
