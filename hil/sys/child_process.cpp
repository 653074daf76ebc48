#include "hil/sys/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/sys/process.hpp"

extern char** environ;

namespace hil::sys {

using namespace std::chrono_literals;

child_process::child_process(std::vector<std::string> argv) : argv_(std::move(argv)) {
  if (argv_.empty()) throw std::invalid_argument("child_process: empty command");
  std::array<int, 2> fds{-1, -1};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) throw_last_errno("pipe2");
  std::vector<char*> args;
  for (auto& a : argv_) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group, so stop() reaches what it starts (ip netns exec → the peer).
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  const int err = posix_spawnp(&pid_, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (err != 0) {
    ::close(fds[0]);
    throw_errno(err, fmt::format("cannot start '{}'", quote_command(argv_)));
  }
  reader_ = std::thread([this, fd = fds[0]] { read_output(fd); });
}

child_process::~child_process() {
  stop();
  if (reader_.joinable()) reader_.join();
}

void child_process::read_output(int fd) {
  std::array<char, 4096> buf{};
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const std::lock_guard lock(mutex_);
    output_.append(buf.data(), static_cast<std::size_t>(n));
    changed_.notify_all();
  }
  ::close(fd);
  const std::lock_guard lock(mutex_);
  eof_ = true;
  changed_.notify_all();
}

bool child_process::wait_for_output(const std::string& text, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] {
    return output_.find(text) != std::string::npos || eof_;
  }) && output_.find(text) != std::string::npos;
}

bool child_process::reap() noexcept {
  if (status_) return true;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r != pid_) return false;
  status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return true;
}

std::optional<int> child_process::wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!reap()) {
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::unique_lock lock(mutex_);  // wake on output or every 10 ms: no busy loop, no fixed sleep
    changed_.wait_for(lock, std::chrono::milliseconds(10));
  }
  // The exit can be seen before the reader has drained the pipe: wait for its end of file too
  // (bounded: a grandchild holding the pipe open must not hang us).
  std::unique_lock lock(mutex_);
  changed_.wait_until(lock, std::max(deadline, std::chrono::steady_clock::now() + 1s),
                      [&] { return eof_; });
  return status_;
}

void child_process::signal(int sig) noexcept {
  if (!reap()) ::kill(-pid_, sig);  // the whole group
}

int child_process::stop(std::chrono::milliseconds grace) noexcept {
  if (pid_ <= 0) return -1;
  signal(SIGTERM);
  try {
    if (const auto s = wait(grace)) return *s;
  } catch (...) {
  }
  signal(SIGKILL);
  int status = 0;
  while (!status_ && ::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  if (!status_) status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return *status_;
}

std::string child_process::output() const {
  const std::lock_guard lock(mutex_);
  return output_;
}

}  // namespace hil::sys
