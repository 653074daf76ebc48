// cpu_cgroup on the real cgroup v1 file system: a command joins both groups before it execs, the
// quota is what was asked, CPU time is counted (and split into user and kernel time), and nothing
// is left behind.
#include "hil/sys/cpu_cgroup.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "hil/sys/child_process.hpp"
#include "hil/sys/text_file.hpp"

namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

const std::string group = "hilperf-cgtest" + std::to_string(::getpid());

std::string run_inside(const hil::sys::cpu_cgroup& g, const std::vector<std::string>& argv) {
  hil::sys::child_process c(g.command(argv));
  const auto status = c.wait(30s);
  EXPECT_EQ(status, 0) << c.output();
  return c.output();
}

TEST(CpuCgroup, ACommandRunsInsideBothGroupsUnderTheQuotaAndTheGroupsGoAway) {
  {
    const hil::sys::cpu_cgroup g("cgtest", 25);
    EXPECT_EQ(hil::sys::read_text_file("/sys/fs/cgroup/cpu/" + group + "/cpu.cfs_quota_us", 64),
              "25000\n");
    const std::string where = run_inside(g, {"cat", "/proc/self/cgroup"});
    EXPECT_THAT(where, HasSubstr(":cpu:/" + group + "\n")) << where;
    EXPECT_THAT(where, HasSubstr(":cpuacct:/" + group + "\n")) << where;
  }
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpu/" + group));
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpuacct/" + group));
}

TEST(CpuCgroup, NoQuotaOnlyCountsAndTheCountStartsAtZero) {
  const hil::sys::cpu_cgroup g("cgtest", 0);
  EXPECT_EQ(hil::sys::read_text_file("/sys/fs/cgroup/cpu/" + group + "/cpu.cfs_quota_us", 64),
            "-1\n");
  EXPECT_EQ(g.used(), 0ns);
  // A loop that needs CPU time: what it used is counted, arguments pass through unchanged.
  const std::string out = run_inside(
      g,
      {"sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo \"$1\"", "sh", "a b"});
  EXPECT_EQ(out, "a b\n");
  EXPECT_GT(g.used(), 0ns);
}

// What a command spent inside g, by mode.
hil::sys::cpu_cgroup::mode_split spent_by(const hil::sys::cpu_cgroup& g,
                                          const std::vector<std::string>& argv) {
  const auto before = g.used_by_mode();
  run_inside(g, argv);
  return g.used_by_mode() - before;
}

TEST(CpuCgroup, SystemCallsCountAsKernelTimeAndALoopAsUserTime) {
  const hil::sys::cpu_cgroup g("cgtest", 0);
  // About half a second each on this runner kind (a hundred ticks and more): dd's time is the
  // kernel clearing its buffer on every read of /dev/zero, the shell's is its own arithmetic.
  const auto copy = spent_by(g, {"dd", "if=/dev/zero", "of=/dev/null", "bs=1M", "count=20000"});
  const auto loop = spent_by(g, {"sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"});
  EXPECT_GT(copy.kernel, 4 * copy.user)
      << "dd: user " << copy.user.count() << " ns, kernel " << copy.kernel.count() << " ns";
  EXPECT_GT(loop.user, 4 * loop.kernel)
      << "sh: user " << loop.user.count() << " ns, kernel " << loop.kernel.count() << " ns";
}

std::string cgroup_of(pid_t pid) {
  return hil::sys::read_text_file("/proc/" + std::to_string(pid) + "/cgroup", 4096);
}

TEST(CpuCgroup, AnAdoptedTaskIsInsideUntilTheGroupGoesAndThenBackAtTheRoot) {
  hil::sys::child_process sleeper({"sleep", "30"});
  {
    hil::sys::cpu_cgroup g("cgtest", 25);
    g.adopt(sleeper.pid());
    EXPECT_THAT(cgroup_of(sleeper.pid()), HasSubstr(":cpu:/" + group + "\n"));
    EXPECT_THAT(cgroup_of(sleeper.pid()), HasSubstr(":cpuacct:/" + group + "\n"));
  }
  EXPECT_THAT(cgroup_of(sleeper.pid()), HasSubstr(":cpu:/\n"));
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpu/" + group)) << "the adopted task kept the group";
}

TEST(CpuCgroup, AnAdoptedTaskThatEndedFirstLeavesNothing) {
  {
    hil::sys::cpu_cgroup g("cgtest", 25);
    hil::sys::child_process sleeper({"sleep", "30"});
    g.adopt(sleeper.pid());
    sleeper.stop();
  }
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpu/" + group));
}

TEST(CpuCgroup, AdoptingATaskThatDoesNotExistThrowsNamingTheFile) {
  hil::sys::cpu_cgroup g("cgtest", 25);
  try {
    g.adopt(999'999'999);
    FAIL() << "adopted a task that does not exist";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr(group + "/tasks"));
  }
}

std::string allowed_cpus(pid_t pid) {
  const std::string status =
      hil::sys::read_text_file("/proc/" + std::to_string(pid) + "/status", 1 << 16);
  const auto at = status.find("Cpus_allowed_list:");
  if (at == std::string::npos) return "none in " + status;
  const auto value = status.find_first_not_of(" \t", at + 18);
  return status.substr(value, status.find('\n', value) - value);
}

TEST(CpuCgroup, KeptOnACpuACommandAndAnAdoptedTaskRunOnlyThereUntilTheGroupGoes) {
  hil::sys::child_process sleeper({"sleep", "30"});
  const std::string all = allowed_cpus(sleeper.pid());
  {
    hil::sys::cpu_cgroup g("cgtest", 0, "0");
    EXPECT_EQ(g.cpus(), "0");
    const std::string where = run_inside(g, {"cat", "/proc/self/cgroup", "/proc/self/status"});
    EXPECT_THAT(where, HasSubstr(":cpuset:/" + group + "\n")) << where;
    EXPECT_THAT(where, ::testing::ContainsRegex("Cpus_allowed_list:\t0\n")) << where;
    g.adopt(sleeper.pid());
    EXPECT_EQ(allowed_cpus(sleeper.pid()), "0");
  }
  EXPECT_EQ(allowed_cpus(sleeper.pid()), all) << "the adopted task stayed kept on CPU 0";
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpuset/" + group));
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpu/" + group));
}

TEST(CpuCgroup, ACpuThatIsNotThereIsRefusedNamingTheFileAndLeavesNothing) {
  try {
    const hil::sys::cpu_cgroup g("cgtest", 25, "4095");
    FAIL() << "kept tasks on CPU 4095";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr(group + "/cpuset.cpus"));
  }
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpuset/" + group));
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpu/" + group));
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpuacct/" + group));
}

TEST(CpuCgroup, RefusesAQuotaOutOfRangeAndLeavesNothing) {
  EXPECT_THROW(hil::sys::cpu_cgroup("cgtest", -1), std::invalid_argument);
  EXPECT_THROW(hil::sys::cpu_cgroup("cgtest", 100'001), std::invalid_argument);
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpu/" + group));
}

}  // namespace
