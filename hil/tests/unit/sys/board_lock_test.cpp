// Unit tests of the board claim (hil/sys/board_lock.hpp), in a temp dir of the test's own (never
// /run/lock/hilperf): a claim writes the holder's pid; a second claim of a held board is refused
// with board_busy naming the board and the holder; a released board, or one whose holder exited
// or was killed, can be claimed again; boards are claimed independently; a forked child keeps the
// claim it inherits; a lock file that cannot be opened is a std::system_error, not board_busy.
#include "hil/sys/board_lock.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>

#include "hil/sys/unique_fd.hpp"
#include "hil/tests/temp_dir.hpp"

namespace hil::sys {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The message of the board_busy a claim of board in dir throws; nullopt (and a test failure)
// when the claim succeeds.
std::optional<std::string> refusal(const fs::path& dir, std::string_view board) {
  try {
    const board_lock claim(dir, board);
    ADD_FAILURE() << "board " << board << " was claimed while held";
  } catch (const board_busy& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

// One pipe: read_end, write_end.
struct pipe_pair {
  pipe_pair() {
    int fds[2] = {-1, -1};
    if (::pipe2(fds, O_CLOEXEC) != 0)
      throw std::system_error(errno, std::system_category(), "pipe");
    read_end = unique_fd(fds[0]);
    write_end = unique_fd(fds[1]);
  }
  unique_fd read_end;
  unique_fd write_end;
};

// A forked child that claims board in dir, reports 'y' (claimed) or 'n' on ready, then waits for
// a byte (or end of file) on go before it _exits. Reaped (killed first if still running) on
// destruction, so a failed assertion never leaves it behind.
class claiming_child {
 public:
  claiming_child(const fs::path& dir, std::string_view board) {
    pid_ = ::fork();
    if (pid_ < 0) throw std::system_error(errno, std::system_category(), "fork");
    if (pid_ == 0) {
      ready_.read_end.reset();
      go_.write_end.reset();
      char verdict = 'n';
      try {
        const board_lock claim(dir, board);
        verdict = 'y';
        (void)!::write(ready_.write_end.get(), &verdict, 1);
        char ignored = 0;
        (void)!::read(go_.read_end.get(), &ignored, 1);
      } catch (...) {
        (void)!::write(ready_.write_end.get(), &verdict, 1);
      }
      ::_exit(0);
    }
    ready_.write_end.reset();
    go_.read_end.reset();
  }
  ~claiming_child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      (void)reap();
    }
  }
  claiming_child(const claiming_child&) = delete;
  claiming_child& operator=(const claiming_child&) = delete;

  // Waits until the child tried its claim; true when it holds the board.
  bool claimed() {
    char verdict = 0;
    return ::read(ready_.read_end.get(), &verdict, 1) == 1 && verdict == 'y';
  }
  // Lets the child exit normally and reaps it; its exit status.
  int finish() {
    go_.write_end.reset();  // end of file on go
    return reap();
  }
  // Kills the child with SIGKILL and reaps it.
  void kill() {
    ::kill(pid_, SIGKILL);
    (void)reap();
  }
  [[nodiscard]] pid_t pid() const { return pid_; }

 private:
  int reap() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return status;
  }

  pipe_pair ready_;  // child → parent: the claim's outcome
  pipe_pair go_;     // parent → child: exit now
  pid_t pid_ = -1;
};

class BoardLock : public ::testing::Test {
 protected:
  [[nodiscard]] fs::path dir() const { return tmp_.path() / "locks"; }

 private:
  hil::test::temp_dir tmp_{"hilperf-board-lock-test"};
};

TEST_F(BoardLock, ClaimCreatesTheDirectoryAndWritesTheHolderPid) {
  const board_lock claim(dir(), "hp0");
  EXPECT_TRUE(fs::is_directory(dir()));
  EXPECT_EQ(read_file(dir() / "hp0.lock"), std::to_string(::getpid()) + "\n");
}

TEST_F(BoardLock, SecondClaimOfAHeldBoardNamesTheBoardAndTheHolder) {
  const board_lock first(dir(), "hp0");
  // flock locks belong to the open file description: a second open in this process conflicts.
  const auto message = refusal(dir(), "hp0");
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("board hp0"), std::string::npos) << *message;
  EXPECT_NE(message->find("pid " + std::to_string(::getpid())), std::string::npos) << *message;
  EXPECT_NE(message->find((dir() / "hp0.lock").string()), std::string::npos) << *message;
}

TEST_F(BoardLock, RefusedClaimLeavesTheHolderPidInPlace) {
  const board_lock first(dir(), "hp0");
  (void)refusal(dir(), "hp0");
  EXPECT_EQ(read_file(dir() / "hp0.lock"), std::to_string(::getpid()) + "\n");
}

TEST_F(BoardLock, ReleasedBoardCanBeClaimedAgain) {
  { const board_lock first(dir(), "hp0"); }
  EXPECT_NO_THROW(const board_lock again(dir(), "hp0"));
}

TEST_F(BoardLock, DifferentBoardsAreClaimedIndependently) {
  const board_lock a(dir(), "hp0");
  EXPECT_NO_THROW(const board_lock b(dir(), "hp1"));
}

TEST_F(BoardLock, StaleLockFileOfAnEarlierHolderDoesNotBlock) {
  fs::create_directories(dir());
  std::ofstream(dir() / "hp0.lock") << "4194304999\n";  // longer than any pid of ours
  const board_lock claim(dir(), "hp0");
  EXPECT_EQ(read_file(dir() / "hp0.lock"), std::to_string(::getpid()) + "\n")
      << "the old content is truncated, not overwritten in part";
}

TEST_F(BoardLock, ClaimOfAnotherProcessIsRefusedUntilItExits) {
  claiming_child child(dir(), "hp0");
  ASSERT_TRUE(child.claimed());
  const auto message = refusal(dir(), "hp0");
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("pid " + std::to_string(child.pid())), std::string::npos) << *message;
  const int status = child.finish();
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_NO_THROW(const board_lock claim(dir(), "hp0"));
}

TEST_F(BoardLock, ClaimOfAKilledProcessIsReleased) {
  claiming_child child(dir(), "hp0");
  ASSERT_TRUE(child.claimed());
  child.kill();
  EXPECT_NO_THROW(const board_lock claim(dir(), "hp0"));
}

TEST_F(BoardLock, ForkedChildKeepsTheInheritedClaimUntilItExits) {
  std::optional<board_lock> claim(std::in_place, dir(), "hp0");
  pipe_pair go;
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {  // shares the parent's open file description, and with it the lock
    go.write_end.reset();
    char ignored = 0;
    (void)!::read(go.read_end.get(), &ignored, 1);
    ::_exit(0);
  }
  go.read_end.reset();
  claim.reset();  // the parent lets go; the child still holds the description
  const auto message = refusal(dir(), "hp0");
  go.write_end.reset();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ASSERT_TRUE(message);
  EXPECT_NO_THROW(const board_lock again(dir(), "hp0"));
}

TEST_F(BoardLock, UnopenableLockFileIsASystemErrorNotBoardBusy) {
  fs::create_directories(dir().parent_path());
  std::ofstream(dir()) << "a file where the lock directory should be\n";
  try {
    const board_lock claim(dir(), "hp0");
    FAIL() << "a claim under a regular file succeeded";
  } catch (const board_busy& e) {
    FAIL() << "reported as busy: " << e.what();
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string_view(e.what()).find((dir() / "hp0.lock").string()),
              std::string_view::npos)
        << e.what();
  }
}

TEST(BoardLockDefaults, ClaimsLiveInRunLock) {
  EXPECT_EQ(board_lock::default_dir(), fs::path("/run/lock/hilperf"));
}

}  // namespace
}  // namespace hil::sys
