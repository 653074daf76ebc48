// The CPU-limit evidence: the per-thread schedstat parser, when the CPU is named in a throughput
// shortfall's cause (the DUT's data thread, the peer's process), and that a link fault without a
// busy CPU still blames the link. One real reading of this thread's schedstat, checked for sanity.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "hil/measure/traffic_checks.hpp"
#include "hil/sys/thread_sched.hpp"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using namespace hil::measure;
using namespace std::chrono_literals;

TEST(ThreadSchedstat, ParsesTimeOnCpuAndTimeWaiting) {
  const auto t = hil::sys::parse_thread_schedstat("274406862 745061082 14\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->on_cpu, 274406862ns);
  EXPECT_EQ(t->waiting, 745061082ns);
  EXPECT_FALSE(hil::sys::parse_thread_schedstat(""));
  EXPECT_FALSE(hil::sys::parse_thread_schedstat("274406862\n")) << "no waiting field";
  EXPECT_FALSE(hil::sys::parse_thread_schedstat("cpu0 1 2\n"));
}

TEST(ThreadSchedstat, ThisThreadsTimesGrowWhileItRuns) {
  const auto before = hil::sys::this_thread_sched_times();
  if (!before) GTEST_SKIP() << "this kernel has no /proc/thread-self/schedstat";
  const auto until = std::chrono::steady_clock::now() + 20ms;
  while (std::chrono::steady_clock::now() < until) {
  }
  const auto after = hil::sys::this_thread_sched_times();
  ASSERT_TRUE(after);
  EXPECT_GE(after->on_cpu - before->on_cpu + (after->waiting - before->waiting), 15ms)
      << "20 ms of spinning is time on a CPU or waiting for one";
}

cpu_evidence busy_dut(double on_cpu, double waiting) {
  cpu_evidence e;
  e.dut = {on_cpu, 5, on_cpu - 5};
  e.peer = {12, 1, 11};
  e.dut_data_thread = data_thread_cpu{on_cpu, waiting};
  return e;
}

TEST(CpuLimitCause, ADataThreadThatNeverSleptNamesTheDutsCpuWithItsFigures) {
  const auto cause = cpu_limit_cause(busy_dut(97, 2));
  EXPECT_THAT(cause, StartsWith("the DUT's CPU was the limit: its data thread wanted a CPU 99 % "
                                "of the test (ran 97 %, waited for a CPU 2 %; the DUT process "
                                "used 97 % of a core)"));
  EXPECT_THAT(cause, HasSubstr("it ran flat out: the core is too slow for this rate"));
  EXPECT_THAT(cause, Not(HasSubstr("peer")));
}

TEST(CpuLimitCause, WaitingMoreThanRunningBlamesOtherTasksOrAQuota) {
  EXPECT_THAT(cpu_limit_cause(busy_dut(25, 74)),
              HasSubstr("other tasks or a CPU quota held the CPU most of that time"));
}

TEST(CpuLimitCause, AThreadThatSleptOnItsSocketIsNotCpuBound) {
  EXPECT_EQ(cpu_limit_cause(busy_dut(60, 29)), "") << "89 % busy: it waited for the network";
  cpu_evidence none;  // no schedstat, quiet peer
  EXPECT_EQ(cpu_limit_cause(none), "");
}

TEST(CpuLimitCause, ABusyPeerIsNamedAsThePeer) {
  auto e = busy_dut(20, 1);
  e.peer.total = 99.5;
  EXPECT_EQ(cpu_limit_cause(e),
            "the peer's process used 100 % of a core: the peer may be the limit (another task on "
            "the PC, or a slow PC)");
}

TEST(TcpThroughputVerdict, ACpuBoundShortfallNamesTheCpuBeforeTheLink) {
  const auto cpu = busy_dut(25, 74);
  const auto v = check_tcp_throughput("DutTransmits", 412e6, 940, &cpu);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message(), HasSubstr("measured 412.0 Mbit/s receiver-side goodput"));
  EXPECT_THAT(v.message(), HasSubstr(">= 940.0 Mbit/s"));
  EXPECT_THAT(v.cause, StartsWith("the DUT's CPU was the limit"));
  EXPECT_THAT(v.cause, HasSubstr("; if not that: link not negotiated at full speed"));
}

TEST(TcpThroughputVerdict, AShortfallWithAnIdleCpuBlamesTheLinkAlone) {
  const auto cpu = busy_dut(8, 1);
  const auto v = check_tcp_throughput("DutTransmits", 480e6, 940, &cpu);
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.cause, StartsWith("link not negotiated at full speed"));
  EXPECT_TRUE(check_tcp_throughput("DutTransmits", 941e6, 940, &cpu).cause.empty());
}

TEST(TcpThroughputVerdict, TheEvidenceIsTheLocalEndsAndTheRemoteReport) {
  test_result r;
  r.local_cpu = {30, 2, 28};
  r.remote_cpu = {7, 1, 6};
  r.local_data_thread = data_thread_cpu{29, 1};
  const auto e = cpu_evidence_of(r);
  EXPECT_DOUBLE_EQ(e.dut.total, 30);
  EXPECT_DOUBLE_EQ(e.peer.total, 7);
  ASSERT_TRUE(e.dut_data_thread);
  EXPECT_DOUBLE_EQ(e.dut_data_thread->busy_percent(), 30);
}

}  // namespace
