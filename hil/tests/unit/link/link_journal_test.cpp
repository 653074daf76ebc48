// The journal's file handling, on a temporary directory (no netlink).
#include "hil/link/link_journal.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "hil/tests/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using hil::link::journal_record;
using hil::link::link_setting;
using ::testing::HasSubstr;

class LinkJournal : public ::testing::Test {
 protected:
  hil::test::temp_dir tmp_{"hilperf-journal"};
  const fs::path& dir_ = tmp_.path();
};

journal_record sample(unsigned long ns, const std::string& ifname) {
  return {4242, 777, ns, ifname, {{link_setting::mtu, 1500}, {link_setting::admin_up, 1}}};
}

TEST_F(LinkJournal, RoundTripsARecord) {
  const hil::link::link_journal j(dir_);
  j.write(sample(11, "eth0"));
  const auto r = j.read(11, "eth0");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->pid, 4242);
  EXPECT_EQ(r->start_time, 777U);
  ASSERT_EQ(r->changes.size(), 2U);
  EXPECT_EQ(r->changes[0].setting, link_setting::mtu);
  EXPECT_EQ(r->changes[0].original, 1500);
  EXPECT_EQ(r->changes[1].setting, link_setting::admin_up);
}

TEST_F(LinkJournal, ListsOnlyTheRecordsOfOneNamespace) {
  const hil::link::link_journal j(dir_);
  j.write(sample(11, "eth0"));
  j.write(sample(11, "eth1"));
  j.write(sample(12, "eth0"));
  EXPECT_EQ(j.records_in(11).size(), 2U);
  EXPECT_EQ(j.records_in(12).size(), 1U);
  EXPECT_TRUE(j.records_in(13).empty());
}

TEST_F(LinkJournal, RemoveIsIdempotent) {
  const hil::link::link_journal j(dir_);
  j.write(sample(11, "eth0"));
  j.remove(11, "eth0");
  EXPECT_FALSE(j.read(11, "eth0").has_value());
  EXPECT_NO_THROW(j.remove(11, "eth0"));
}

TEST_F(LinkJournal, ADamagedRecordIsReportedWithItsPath) {
  const hil::link::link_journal j(dir_);
  std::ofstream(dir_ / "11-eth0.json") << "{ not json";
  try {
    (void)j.read(11, "eth0");
    FAIL() << "a damaged record must be reported";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("11-eth0.json is damaged"));
  }
}

// Found by fuzz/link_journal.cpp: a number beyond 64 bits reads as a double, which the reader cast
// to pid_t (undefined behaviour, a UBSan report). Each field is now range-checked and named.
TEST(LinkJournalRecord, AnIntegerBeyondItsFieldIsRefusedNamingTheField) {
  const std::string fields = R"("start_time":1,"netns_inode":2,"ifname":"eth0","changes":[])";
  for (const std::string pid : {"20000000000010538423", "1e300", "4294967296", "1.5", "\"7\""}) {
    try {
      (void)hil::link::parse_journal_record(R"({"pid":)" + pid + "," + fields + "}");
      FAIL() << "pid " << pid << " must be refused";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), HasSubstr("\"pid\"")) << pid;
    }
  }
  EXPECT_THROW((void)hil::link::parse_journal_record(
                   R"({"pid":1,"start_time":-1,"netns_inode":2,"ifname":"eth0","changes":[]})"),
               std::invalid_argument);
  EXPECT_THROW((void)hil::link::parse_journal_record(
                   R"({"pid":1,"start_time":1,"netns_inode":2,"ifname":"eth0","changes":)"
                   R"([{"setting":"mtu","original":1e30}]})"),
               std::invalid_argument);
}

TEST(LinkJournalRecord, ReadsTheLayoutWriteProduces) {
  const auto r = hil::link::parse_journal_record(
      R"({"changes":[{"original":1500,"setting":"mtu"}],"ifname":"eth0",)"
      R"("netns_inode":4026532281,"pid":1234,"start_time":98765})");
  EXPECT_EQ(r.pid, 1234);
  EXPECT_EQ(r.start_time, 98765U);
  EXPECT_EQ(r.netns_inode, 4026532281UL);
  ASSERT_EQ(r.changes.size(), 1U);
  EXPECT_EQ(r.changes[0].original, 1500);
}

TEST_F(LinkJournal, AnUnwritableDirectoryIsAnActionableError) {
  try {
    const hil::link::link_journal j("/proc/hilperf-cannot-exist");
    FAIL() << "creating a journal under /proc must fail";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("HILPERF_STATE_DIR"));
  }
}

TEST(ProcessIdentity, TellsALiveProcessFromADeadOne) {
  EXPECT_TRUE(hil::link::is_alive(hil::link::self_identity()));
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  const auto identity = hil::link::process_identity{child, 0};
  ::waitpid(child, nullptr, 0);
  EXPECT_FALSE(hil::link::is_alive(identity));
}

TEST(ProcessIdentity, AKilledButUnreapedProcessIsGone) {
  const pid_t child = ::fork();
  if (child == 0) {
    for (;;) ::pause();
  }
  ::kill(child, SIGKILL);
  // Until it is reaped the child is a zombie: kill(pid, 0) still succeeds, but it restores nothing.
  siginfo_t info{};
  ::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT);
  EXPECT_FALSE(hil::link::is_alive({child, 0}));
  ::waitpid(child, nullptr, 0);
}

TEST(ProcessIdentity, APidReusedByAnotherProcessIsNotTheWriter) {
  auto self = hil::link::self_identity();
  self.start_time += 1;  // same pid, different start: the writer is gone
  EXPECT_FALSE(hil::link::is_alive(self));
}

}  // namespace
