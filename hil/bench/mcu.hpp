// The simulated MCU (tools/hilperf-mcu-sim; docs/console-duts.md "The simulated MCU") for a run
// of a console DUT's rows on the simulated bench: a firmware console on a pseudo-terminal, its
// network end in the bench's DUT namespace, reachable at the profile's console.port — the pty's
// link itself, or for a tcp://host:port or rfc2217://host:port console a real ser2net in the peer
// namespace (where the cases run) serving the pty on that address, raw or RFC 2217, as a lab's
// console server would.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

#include "hil/bench/ser2net.hpp"
#include "hil/profile/profile.hpp"
#include "hil/sys/child_process.hpp"

namespace hil::bench {

// RAII: when nothing is at console.port yet (no MCU left running by an earlier step or another
// tool; for tcp:// and rfc2217://, nothing answers there), starts mcu_binary in the DUT namespace
// with its console linked at console.port (tcp://, rfc2217://: in a directory of its own, and
// ser2net serving it), playing the profile's console.dialect with its reset_command, and waits
// (10 s at most) until it is ready; stops them (and the MCU's iperf runs) on destruction. Throws
// std::runtime_error quoting the emulator's or ser2net's output when one does not come up,
// std::invalid_argument for a TCP console whose host is not an IP address or whose port is no
// number.
class mcu_session {
 public:
  mcu_session(const profile::profile& p, const std::filesystem::path& mcu_binary);
  ~mcu_session();
  mcu_session(const mcu_session&) = delete;
  mcu_session& operator=(const mcu_session&) = delete;

  [[nodiscard]] bool started() const noexcept { return mcu_ != nullptr; }

 private:
  void start_mcu(const profile::profile& p, const std::filesystem::path& mcu_binary,
                 const std::string& link);

  std::filesystem::path dir_;  // tcp://, rfc2217://: the pty's link and ser2net's configuration
  std::unique_ptr<sys::child_process> mcu_;
  std::unique_ptr<ser2net_server> ser2net_;
};

}  // namespace hil::bench
