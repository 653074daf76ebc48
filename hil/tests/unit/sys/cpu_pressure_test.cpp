// The CPU pressure meter's parsers on the kernel's text, the process growth rule, and one real
// window on this machine (its figures are only checked for sanity, never for a load level).
#include "hil/sys/cpu_pressure.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace {

using hil::sys::cpu_growth;
using hil::sys::parse_proc_stat;
using hil::sys::parse_psi_some_total_us;
using hil::sys::parse_schedstat;
using hil::sys::proc_stat;

TEST(CpuPressureParse, PsiSomeTotal) {
  EXPECT_EQ(parse_psi_some_total_us("some avg10=35.55 avg60=11.55 avg300=2.88 total=9625343\n"
                                    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"),
            9625343U);
  EXPECT_FALSE(parse_psi_some_total_us(""));
  EXPECT_FALSE(parse_psi_some_total_us("full avg10=0.00 total=5\n"));
  EXPECT_FALSE(parse_psi_some_total_us("some avg10=1.00\n"));
}

TEST(CpuPressureParse, SchedstatSumsTheWaitOfEveryCpu) {
  const auto s = parse_schedstat(
      "version 15\ntimestamp 4295\n"
      "cpu0 0 0 0 0 0 0 1000 300 50\ndomain0 3 1 2 3\n"
      "cpu1 0 0 0 0 0 0 2000 700 60\n");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->wait_ns, 1000U);
  EXPECT_EQ(s->cpus, 2);
  EXPECT_FALSE(parse_schedstat("version 15\n"));
  EXPECT_FALSE(parse_schedstat("cpu0 1 2\n")) << "a cpu line without the wait field";
}

TEST(CpuPressureParse, ProcStatNameWithSpacesAndParentheses) {
  const auto s = parse_proc_stat(
      "4242 (my (odd) prog) R 1 4242 4242 0 -1 4194304 100 0 0 0 150 25 0 0 20 0 1 0 9 0 0");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "my (odd) prog");
  EXPECT_EQ(s->ppid, 1);
  EXPECT_FALSE(s->kernel_thread);
  EXPECT_EQ(s->cpu_ticks, 175U);
  const auto k = parse_proc_stat("32 (kworker/u8:1) I 2 0 0 0 -1 69238880 0 0 0 0 56 3 0 0 20 0");
  ASSERT_TRUE(k);
  EXPECT_TRUE(k->kernel_thread) << "PF_KTHREAD (0x00200000) in the flags";
  EXPECT_FALSE(parse_proc_stat("4242 (cut) R 1 2"));
  EXPECT_FALSE(parse_proc_stat("garbage"));
}

TEST(CpuPressureGrowth, LargestFirstNewProcessesFromZeroAndReusedPidsHandled) {
  const std::map<pid_t, proc_stat> before{
      {10, {"cc1plus", 1, false, 100}}, {11, {"sh", 1, false, 5}}, {12, {"old", 1, false, 900}}};
  const std::map<pid_t, proc_stat> after{{10, {"cc1plus", 1, false, 270}},
                                         {11, {"sh", 1, false, 5}},
                                         {12, {"new", 1, false, 30}},
                                         {13, {"make", 1, false, 20}}};
  const auto g = cpu_growth(before, after, 0.01);
  ASSERT_EQ(g.size(), 3U);
  EXPECT_EQ(g[0].name, "cc1plus");
  EXPECT_DOUBLE_EQ(g[0].cpu_seconds, 1.7);
  EXPECT_EQ(g[1].name, "new") << "a pid reused by another program counts from zero";
  EXPECT_DOUBLE_EQ(g[1].cpu_seconds, 0.3);
  EXPECT_EQ(g[2].name, "make");
}

TEST(CpuPressureDescribe, NamesPressureSourceAndBusiest) {
  hil::sys::bench_pressure p;
  p.some_percent = 31;
  p.source = "psi";
  p.window_seconds = 5.2;
  p.busiest = {{10, "cc1plus", 1.7}, {11, "kworker/0:1", 0.9, true}};
  p.others_cpu_seconds = 1.7;
  EXPECT_EQ(p.describe(),
            "31.0 % CPU pressure, other processes 33 % of a core over 5.2 s (psi); busiest other "
            "processes: cc1plus 1.70 s, kworker/0:1 [kernel] 0.90 s");
}

TEST(CpuPressureMeter, ARealWindowIsWithinBoundsAndLeavesThisProcessOut) {
  const hil::sys::cpu_pressure_meter meter;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  while (std::chrono::steady_clock::now() < until) {
  }
  const auto p = meter.finish();
  EXPECT_GE(p.some_percent, 0.0);
  EXPECT_LE(p.some_percent, 100.0);
  EXPECT_GT(p.window_seconds, 0.04);
  EXPECT_NE(p.source, "");
  for (const auto& b : p.busiest) EXPECT_NE(b.pid, ::getpid()) << "this process is the measurement";
  EXPECT_GT(p.bench_cpu_seconds, 0.0) << "this process's busy loop counts as the bench's";
}

}  // namespace
