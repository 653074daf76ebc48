// An exclusive claim on one board of a farm for as long as a case process runs on it: the guard
// behind "no two cases share a board", whether CTest's resource allocation was used or bypassed
// (two runners, a hand-started case, a resource spec with a board listed twice).
//
//   <dir>/<board id>.lock   flock(LOCK_EX | LOCK_NB) held by the open descriptor; the holder's pid
//                           written into it, so a refused claim names who has the board.
//
// The kernel drops the lock when the process exits, however it exits: a killed run leaves nothing
// to clean up. A forked child (run_in_netns) shares the claim; programs it execs do not.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "hil/sys/unique_fd.hpp"

namespace hil::sys {

// Thrown when another process holds the board.
class board_busy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class board_lock {
 public:
  // Claims the board; creates dir when missing. Throws board_busy naming the holder's pid when
  // another process holds it, std::system_error when the lock file cannot be opened.
  board_lock(const std::filesystem::path& dir, std::string_view board);

  // Where the claims live on this machine: /run/lock/hilperf.
  static std::filesystem::path default_dir();

 private:
  unique_fd fd_;  // the locked file; closing it releases the claim
};

}  // namespace hil::sys
