// The simulated MCU (tools/hilperf-mcu-sim; docs/console-duts.md "The simulated MCU") for a run
// of a console DUT's rows on the simulated bench: a firmware console on a pseudo-terminal, its
// network end in the bench's DUT namespace, reachable at the profile's console.port.
#pragma once

#include <filesystem>
#include <memory>

#include "hil/profile/profile.hpp"
#include "hil/sys/child_process.hpp"

namespace hil::bench {

// RAII: when nothing is at console.port yet (no MCU left running by an earlier step or another
// tool; a tcp:// console is never started here: ser2net or a lab's console server serves it),
// starts mcu_binary in the DUT namespace with its console linked at console.port and waits
// (10 s at most) until it is ready; stops it (and its iperf runs) on destruction. Throws
// std::runtime_error quoting the emulator's output when it does not come up.
class mcu_session {
 public:
  mcu_session(const profile::profile& p, const std::filesystem::path& mcu_binary);
  ~mcu_session();
  mcu_session(const mcu_session&) = delete;
  mcu_session& operator=(const mcu_session&) = delete;

  [[nodiscard]] bool started() const noexcept { return mcu_ != nullptr; }

 private:
  std::unique_ptr<sys::child_process> mcu_;
};

}  // namespace hil::bench
