// The files hilperf-mcu-sim keeps while it runs, each removed when it ends (if still its own): a
// symbolic link to its pty (a fixed path for a profile) and its pid file (so a script stops it by
// its process id, never by its name).
#pragma once

#include <string>

namespace hil::mcu_sim {

// A symbolic link to a path, removed on destruction if it still points there. Replaces a
// symbolic link already at link; throws std::system_error when link is something else or cannot
// be made.
class symlink_guard {
 public:
  symlink_guard(std::string target, std::string link);
  ~symlink_guard();
  symlink_guard(const symlink_guard&) = delete;
  symlink_guard& operator=(const symlink_guard&) = delete;

 private:
  std::string target_;
  std::string link_;
};

// A file holding this process's id and a line end, removed on destruction if it still holds it.
// Throws std::system_error when it cannot be written.
class pid_file {
 public:
  explicit pid_file(std::string path);
  ~pid_file();
  pid_file(const pid_file&) = delete;
  pid_file& operator=(const pid_file&) = delete;

 private:
  std::string path_;
  std::string text_;  // what it holds
};

}  // namespace hil::mcu_sim
