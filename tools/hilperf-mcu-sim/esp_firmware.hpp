// ESP-IDF's console with espressif/iperf-cmd's `iperf` command, as its UART shows it
// (docs/console-duts.md): esp_console's REPL in the line editor's dumb mode (the boot's terminal
// probe goes unanswered), every byte echoed, CR and LF each ending a line (CR LF: the line, then
// an empty one), output lines in CR LF; the prompt `iperf> ` (or the name given) printed again
// once a command returns; `iperf` starting instances side by side (ids 1, 2, …) whose reports come
// after the prompt, `iperf --abort` stopping them all with `DONE.IPERF_STOP,OK`; `restart` (or the
// reset command given) rebooting.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "esp_runs.hpp"
#include "firmware.hpp"
#include "line_editor.hpp"
#include "shell_plumbing.hpp"

namespace hil::mcu_sim {

class esp_firmware final : public simulated_firmware {
 public:
  // s.reset_command empty: "restart"; s.prompt empty: "iperf>".
  esp_firmware(firmware_settings s, clock::time_point now);

  [[nodiscard]] std::string boot(clock::time_point now) override;
  [[nodiscard]] std::string typed(char c, clock::time_point now) override;
  [[nodiscard]] std::string tick(clock::time_point now) override;

 private:
  // The boot banner and the first prompt, without the CR LF conversion.
  std::string reboot(clock::time_point now);
  std::string run_line(const std::string& line, clock::time_point now);
  std::string run_iperf(const std::vector<std::string>& words, clock::time_point now);
  std::string other_tasks(clock::time_point now);
  std::uint64_t uptime_ms(clock::time_point now) const;

  firmware_settings settings_;
  clock::time_point boot_;
  line_editor editor_;
  clock::time_point last_typed_;
  std::vector<std::unique_ptr<esp_instance>> instances_;
  run_plumbing runs_;
};

}  // namespace hil::mcu_sim
