// A long-running helper process (a peer server, a stock iperf3) owned by RAII: started with its
// output captured, waited on for a readiness line with a deadline, stopped on destruction
// (SIGTERM, then SIGKILL after a grace period) so no test leaves a process behind.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace hil::sys {

class child_process {
 public:
  // Starts argv[0] (PATH lookup) with stdout+stderr captured; throws std::system_error when it
  // cannot start.
  explicit child_process(std::vector<std::string> argv);
  ~child_process();  // stop(), never throws
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  // Waits until the output contains text; false when the deadline passes or the process exits
  // first (the output then says why).
  bool wait_for_output(const std::string& text, std::chrono::milliseconds timeout);
  // Waits for the process to exit and for its output to be read to the end; its exit status
  // (128+signal when killed), nullopt on timeout.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  // Sends a signal (no-op once it exited).
  void signal(int sig) noexcept;
  // SIGTERM, then SIGKILL after grace; returns the exit status.
  int stop(std::chrono::milliseconds grace = std::chrono::milliseconds(2000)) noexcept;

  // Everything it printed so far.
  [[nodiscard]] std::string output() const;
  [[nodiscard]] pid_t pid() const noexcept { return pid_; }
  [[nodiscard]] const std::vector<std::string>& argv() const noexcept { return argv_; }

 private:
  void read_output(int fd);  // the reader thread's body
  // Reaps without blocking; true once exited.
  bool reap() noexcept;

  std::vector<std::string> argv_;
  pid_t pid_ = -1;
  std::optional<int> status_;  // set once reaped
  mutable std::mutex mutex_;   // guards output_, eof_
  std::condition_variable changed_;
  std::string output_;
  bool eof_ = false;  // the child closed its output (usually: exited)
  std::thread reader_;
};

}  // namespace hil::sys
