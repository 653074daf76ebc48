// The loop that joins a simulated firmware to its pseudo-terminal: bytes the host typed go to the
// firmware one by one, what the firmware prints goes back, through the line faults of the
// switches (a byte lost now and then, the wrong baud rate, a dead line). Every wait is bounded:
// the loop looks at the stop flag at least every 20 ms.
#pragma once

#include <csignal>
#include <cstdint>

#include "firmware.hpp"
#include "pty_pair.hpp"

namespace hil::mcu_sim {

struct line_settings {
  bool mute = false;             // nothing is ever written back (a wrong port, a dead board)
  bool garble = false;           // everything written back is garbage (a wrong baud rate)
  std::uint64_t drop_every = 0;  // every Nth byte the host sends is lost (0: none)
  std::uint64_t drop_limit = 0;  // at most this many are lost (0: no limit)
};

// Boots fw on pty and plays it until stop becomes non-zero. Throws std::system_error when the
// master side fails.
void run_console(const pty_pair& pty, simulated_firmware& fw, const line_settings& line,
                 const volatile std::sig_atomic_t& stop);

}  // namespace hil::mcu_sim
