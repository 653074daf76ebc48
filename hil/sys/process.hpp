// Running helper programs (iproute2's ip and tc for the simulated bench) as real child processes.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace hil::sys {

// What a finished child left behind.
struct run_result {
  int exit_code = -1;  // the exit status, or 128+signal when it was killed
  std::string output;  // stdout and stderr, interleaved as written
};

// Runs argv[0] (looked up in PATH) with its stdin closed and waits at most timeout; a child still
// running then is killed and reported as a timeout. Throws std::system_error when it cannot start
// or when it times out.
run_result run(const std::vector<std::string>& argv,
               std::chrono::milliseconds timeout = std::chrono::seconds(30));

// run() that also throws std::system_error when the exit code is not 0, quoting the command and its
// output so the message says what failed.
std::string run_checked(const std::vector<std::string>& argv,
                        std::chrono::milliseconds timeout = std::chrono::seconds(30));

// The command line as a user would type it, for messages.
std::string quote_command(const std::vector<std::string>& argv);

}  // namespace hil::sys
