#include "hil/sys/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/sys/unique_fd.hpp"

extern char** environ;

namespace hil::sys {
namespace {

// Spawns argv with stdout+stderr on write_end and stdin on /dev/null; returns the pid.
pid_t spawn(const std::vector<std::string>& argv, int write_end) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, write_end, STDERR_FILENO);
  pid_t pid = -1;
  const int err = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) {
    throw_errno(
        err, fmt::format("cannot start '{}' (is it installed? ci/install-deps suite|tests|bench)",
                         argv.at(0)));
  }
  return pid;
}

// Waits for pid and maps its status to an exit code (128+signal when killed).
int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw_last_errno("waitpid");
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::string quote_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && a.find_first_of(" \t'\"$\\") == std::string::npos;
    out += plain ? a : "'" + a + "'";
  }
  return out;
}

run_result run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  if (argv.empty()) throw std::invalid_argument("hil::sys::run: empty command");
  std::array<int, 2> fds{-1, -1};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) throw_last_errno("pipe2");
  unique_fd read_end(fds[0]);
  unique_fd write_end(fds[1]);
  const pid_t pid = spawn(argv, write_end.get());
  write_end.reset();  // so read() sees EOF once the child exits

  run_result result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::array<char, 4096> buf{};
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd pfd{read_end.get(), POLLIN, 0};
    const int ready = left.count() > 0 ? ::poll(&pfd, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      ::kill(pid, SIGKILL);
      reap(pid);
      throw std::system_error(std::make_error_code(std::errc::timed_out),
                              fmt::format("'{}' did not finish within {} ms; output so far: {}",
                                          quote_command(argv), timeout.count(), result.output));
    }
    const ssize_t n = ::read(read_end.get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    result.output.append(buf.data(), static_cast<std::size_t>(n));
  }
  result.exit_code = reap(pid);
  return result;
}

std::string run_checked(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  run_result r = run(argv, timeout);
  if (r.exit_code != 0) {
    while (!r.output.empty() && r.output.back() == '\n') r.output.pop_back();
    throw std::system_error(std::make_error_code(std::errc::io_error),
                            fmt::format("'{}' failed with exit code {}: {}", quote_command(argv),
                                        r.exit_code, r.output));
  }
  return std::move(r.output);
}

}  // namespace hil::sys
