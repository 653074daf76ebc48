// A pseudo-terminal pair for a simulated board: the program plays the board on the master side,
// the host opens the slave (its path) as it would a USB-serial device. The slave is kept open
// here, set raw (no echo, no line editing, no CR/LF mapping by the kernel), so the host may open,
// close and reopen it while the board keeps running, as a real board does. RAII: both closed on
// destruction.
#pragma once

#include <string>

#include "hil/sys/unique_fd.hpp"

namespace hil::mcu_sim {

class pty_pair {
 public:
  // Opens a new pair (posix_openpt, grantpt, unlockpt); the master is non-blocking. Throws
  // std::system_error naming the step that failed.
  pty_pair();

  [[nodiscard]] int master() const noexcept { return master_.get(); }
  // "/dev/pts/N"
  [[nodiscard]] const std::string& slave_path() const noexcept { return slave_path_; }

 private:
  sys::unique_fd master_;
  sys::unique_fd slave_;  // held open: the master never reads EIO when the host closes
  std::string slave_path_;
};

}  // namespace hil::mcu_sim
