#include "hil/bench/mcu.hpp"

#include <chrono>
#include <stdexcept>
#include <system_error>

namespace hil::bench {

mcu_session::mcu_session(const profile::profile& p, const std::filesystem::path& mcu_binary) {
  // A TCP console is served by something else (ser2net before a device); one is there already.
  if (p.console.port.starts_with("tcp://")) return;
  std::error_code ec;
  if (std::filesystem::exists(p.console.port, ec)) return;
  mcu_ = std::make_unique<sys::child_process>(
      std::vector<std::string>{"ip", "netns", "exec", p.dut_netns(), mcu_binary.string(),
                               "--dialect", "st67w6x", "--link", p.console.port});
  if (!mcu_->wait_for_output("console ", std::chrono::seconds(10))) {
    const std::string output = mcu_->output();
    mcu_.reset();
    throw std::runtime_error("the simulated MCU (" + mcu_binary.string() + ") did not come up in " +
                             p.dut_netns() + ": " + output);
  }
}

mcu_session::~mcu_session() = default;  // child_process stops the emulator: SIGTERM, then waits

}  // namespace hil::bench
