// LinkGuard on a real veth: restores after a failed assertion, an exception, SIGTERM, and (through
// the journal) after SIGKILL; a failed restore is loud; a link held by a live process is refused.
#include <gmock/gmock-spec-builders.h>
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "hil/link/addresses.hpp"
#include "hil/link/link_guard.hpp"
#include "hil/link/signal_restore.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"
#include "hil/tests/netns/test_bench.hpp"
#include "hil/tests/temp_dir.hpp"

namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const std::string dut = hil::test::run_layout().dut_interface;

// A journal directory of the test's own, removed afterwards.
class LinkGuard : public ::testing::Test {
 protected:
  void SetUp() override { journal_.emplace(dir_); }
  void TearDown() override {
    link_.set_mtu(dut, 1500);
    link_.set_admin_up(dut, true);
  }

  // Forks a child that changes the MTU to 3000 under a guard (with the signal thread when
  // on_signal), reports readiness through a pipe and waits to be killed.
  pid_t start_victim(bool on_signal) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      if (on_signal) hil::link::restore_links_on_signal(dir_);
      hil::link::link_control link;
      hil::link::link_guard guard(link, *journal_, dut);
      guard.set_mtu(3000);
      (void)!::write(fds[1], "r", 1);
      for (;;) ::pause();
    }
    ::close(fds[1]);
    char ready = 0;
    EXPECT_EQ(::read(fds[0], &ready, 1), 1) << "the victim died before changing the MTU";
    ::close(fds[0]);
    return pid;
  }

  // Waits for pid and returns the signal that ended it (0 when it exited).
  static int wait_signal(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }

  hil::test::temp_dir tmp_{"hilperf-journal"};
  const fs::path& dir_ = tmp_.path();
  std::optional<hil::link::link_journal> journal_;
  hil::link::link_control link_;
};

// For EXPECT_FATAL_FAILURE, which accepts no locals: a guarded change, then a failed assertion.
hil::link::link_control* g_link = nullptr;
const hil::link::link_journal* g_journal = nullptr;
void change_then_fail_assertion() {
  hil::link::link_guard guard(*g_link, *g_journal, dut);
  guard.set_mtu(3000);
  ASSERT_EQ(g_link->mtu(dut), 1500) << "deliberate failure";
}

TEST_F(LinkGuard, RestoresAfterAFailedAssertion) {
  g_link = &link_;
  g_journal = &*journal_;
  EXPECT_FATAL_FAILURE(change_then_fail_assertion(), "deliberate failure");
  EXPECT_EQ(link_.mtu(dut), 1500);
  EXPECT_TRUE(journal_->records_in(hil::sys::current_netns_inode()).empty());
}

TEST_F(LinkGuard, RestoresAfterAnException) {
  try {
    hil::link::link_guard guard(link_, *journal_, dut);
    guard.set_mtu(576);
    throw std::runtime_error("test body failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(link_.mtu(dut), 1500);
  EXPECT_EQ(link_.sysfs().mtu(dut), 1500);
}

TEST_F(LinkGuard, RestoresEverySettingToItsFirstOriginal) {
  hil::link::link_guard guard(link_, *journal_, dut);
  guard.set_mtu(3000);
  guard.set_mtu(576);
  guard.set_admin_up(false);
  ASSERT_TRUE(guard.dirty());
  const auto record = journal_->read(hil::sys::current_netns_inode(), dut);
  ASSERT_TRUE(record.has_value()) << "the original must be journalled before the change";
  EXPECT_EQ(record->changes.size(), 2U);
  guard.restore();
  EXPECT_FALSE(guard.dirty());
  EXPECT_EQ(link_.mtu(dut), 1500);
  EXPECT_TRUE(link_.info(dut).admin_up);
  EXPECT_FALSE(journal_->read(hil::sys::current_netns_inode(), dut).has_value());
}

TEST_F(LinkGuard, PutsBackTheIpv6AddressesTheKernelDropsBelow1280) {
  const auto before = hil::link::ipv6_addresses(link_, dut);
  ASSERT_THAT(before, ::testing::Contains("2001:2::10/64"));
  {
    hil::link::link_guard guard(link_, *journal_, dut);
    guard.set_mtu(576);
    EXPECT_TRUE(hil::link::ipv6_addresses(link_, dut).empty()) << "the kernel drops them";
    guard.restore();
  }
  EXPECT_EQ(hil::link::ipv6_addresses(link_, dut), before);
}

TEST_F(LinkGuard, RestoresOnSigterm) {
  const pid_t victim = start_victim(true);
  ASSERT_EQ(link_.mtu(dut), 3000);
  ::kill(victim, SIGTERM);
  EXPECT_EQ(wait_signal(victim), SIGTERM) << "the signal must still end the process";
  EXPECT_EQ(link_.mtu(dut), 1500);
  EXPECT_TRUE(journal_->records_in(hil::sys::current_netns_inode()).empty());
}

TEST_F(LinkGuard, NextRunRestoresAfterSigkillAndSaysSo) {
  const pid_t victim = start_victim(false);
  ::kill(victim, SIGKILL);
  EXPECT_EQ(wait_signal(victim), SIGKILL);
  ASSERT_EQ(link_.mtu(dut), 3000) << "SIGKILL cannot be caught: the change is still there";

  const auto lines = hil::link::recover_links(link_, *journal_);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_THAT(lines[0], HasSubstr("restored " + dut + ": mtu 3000 -> 1500"));
  EXPECT_THAT(lines[0], HasSubstr("pid " + std::to_string(victim)));
  EXPECT_EQ(link_.mtu(dut), 1500);
  EXPECT_TRUE(hil::link::recover_links(link_, *journal_).empty()) << "recovery happens once";
}

TEST_F(LinkGuard, ALinkHeldByALiveProcessIsRefused) {
  const pid_t holder = start_victim(false);
  try {
    hil::link::link_guard guard(link_, *journal_, dut);
    ADD_FAILURE() << "a second guard on a held link must throw";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::device_or_resource_busy);
    EXPECT_THAT(e.what(), HasSubstr("being changed by process " + std::to_string(holder)));
  }
  EXPECT_TRUE(hil::link::recover_links(link_, *journal_).empty()) << "a live holder is left alone";
  ::kill(holder, SIGKILL);
  wait_signal(holder);
  EXPECT_EQ(hil::link::recover_links(link_, *journal_).size(), 1U);
}

TEST_F(LinkGuard, AFailedRestoreThrowsAndKeepsTheJournal) {
  hil::sys::run_checked({"ip", "link", "add", "gone0", "type", "veth", "peer", "name", "gone1"});
  {
    hil::link::link_guard guard(link_, *journal_, "gone0");
    guard.set_mtu(2000);
    hil::sys::run_checked({"ip", "link", "del", "gone0"});
    try {
      guard.restore();
      ADD_FAILURE() << "restoring a vanished link must throw";
    } catch (const std::system_error& e) {
      EXPECT_THAT(e.what(), HasSubstr("could not restore gone0: mtu back to 1500"));
    }
    EXPECT_TRUE(guard.dirty());
    EXPECT_TRUE(journal_->read(hil::sys::current_netns_inode(), "gone0").has_value());
  }  // the destructor reports on stderr and does not throw
  const auto lines = hil::link::recover_links(link_, *journal_);
  ASSERT_EQ(lines.size(), 0U) << "the record belongs to this live process";
}

}  // namespace
