// Zephyr's shell with the zperf commands, as its console shows it (docs/console-duts.md): a shell
// that echoes and takes CR, LF or CR LF as one line end (line_editor.hpp), output lines in CR LF,
// the green prompt `uart:~$ `; `zperf udp|tcp upload …` blocking the shell until its statistics
// (bytes typed meanwhile are neither echoed nor run until then), `zperf udp|tcp download [port]`
// giving the prompt back once its server is bound and reporting each session from another thread
// (each piece printed as Zephyr prints another thread's text: the prompt line erased, the text,
// the prompt drawn again), `… download stop`, a reset command that reboots.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "firmware.hpp"
#include "line_editor.hpp"
#include "shell_plumbing.hpp"
#include "zperf_runs.hpp"

namespace hil::mcu_sim {

class zperf_firmware final : public simulated_firmware {
 public:
  // s.reset_command empty: "kernel reboot cold".
  zperf_firmware(firmware_settings s, clock::time_point now);

  [[nodiscard]] std::string boot(clock::time_point now) override;
  [[nodiscard]] std::string typed(char c, clock::time_point now) override;
  [[nodiscard]] std::string tick(clock::time_point now) override;

 private:
  // The shell's own output ("\n" line ends) for byte c, without the CR LF conversion.
  std::string take(char c, clock::time_point now);
  // The boot banner and the first prompt, without the CR LF conversion.
  std::string reboot(clock::time_point now);
  std::string run_line(const std::string& line, clock::time_point now);
  std::string run_zperf(const std::vector<std::string>& words, clock::time_point now);
  // The command blocking the shell has ended: its last words, the prompt, then what was typed
  // meanwhile.
  std::string unblock(std::string last_words, clock::time_point now);
  // Text of another thread: as is while a command runs, else between erasing and redrawing the
  // prompt line.
  std::string from_another_thread(const std::string& text) const;
  std::string other_tasks(clock::time_point now);
  [[nodiscard]] bool blocked() const noexcept { return upload_ || binding_ >= 0; }
  std::uint64_t uptime_ms(clock::time_point now) const;

  firmware_settings settings_;
  clock::time_point boot_;
  line_editor editor_;
  clock::time_point last_typed_;
  std::string held_;  // bytes typed while a command blocks the shell
  std::unique_ptr<zperf_upload_run> upload_;
  std::array<std::unique_ptr<zperf_download_run>, 2> downloads_;  // [udp, tcp]
  int binding_ = -1;  // the download whose command waits for its bind (index), -1: none
  run_plumbing runs_;
};

}  // namespace hil::mcu_sim
