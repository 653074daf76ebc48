// Zephyr zperf's two kinds of run, played by stock iPerf 2 in a child process (stock_iperf.hpp):
// an upload (the board sends; the shell blocks until it ends and prints its statistics) and a
// download (the board's server; it stays up across sessions until `download stop`, reporting each
// session as it starts and ends, from another thread). Each owns its child: stopped on
// destruction.
//
//   upload:   start ─▶ … stock client exits ─▶ statistics (or "UDP upload failed (-111)")
//             error_line: +1 s ─▶ the line;  never_end: nothing, ever
//   download: start ─▶ bound ─▶ per session: "New session started." … "End of session!" + figures
//             error_line: +1 s after bound ─▶ the line, the server gone;  never_end: no session end
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "firmware.hpp"
#include "hil/sys/child_process.hpp"
#include "zperf_text.hpp"

namespace hil::mcu_sim {

class zperf_upload_run {
 public:
  using clock = std::chrono::steady_clock;

  // Throws std::system_error when iPerf 2 cannot start.
  zperf_upload_run(zperf::upload u, run_settings settings, clock::time_point now);
  ~zperf_upload_run();
  zperf_upload_run(const zperf_upload_run&) = delete;
  zperf_upload_run& operator=(const zperf_upload_run&) = delete;

  // What the command prints when the upload has ended (its statistics or its failure, "\n"
  // line ends); nullopt while it goes on.
  [[nodiscard]] std::optional<std::string> poll(clock::time_point now);

 private:
  zperf::upload upload_;
  run_settings settings_;
  clock::time_point start_;
  std::unique_ptr<sys::child_process> child_;  // null with error_line
  bool silent_ = false;                        // never_end: over, and says nothing
};

class zperf_download_run {
 public:
  using clock = std::chrono::steady_clock;

  // Throws std::system_error when iPerf 2 cannot start.
  zperf_download_run(zperf::download d, run_settings settings, clock::time_point now);
  ~zperf_download_run();
  zperf_download_run(const zperf_download_run&) = delete;
  zperf_download_run& operator=(const zperf_download_run&) = delete;

  // True once the server's socket is bound (or its iPerf 2 said why not, or 5 s passed).
  [[nodiscard]] bool settled(clock::time_point now) const;
  // True when iPerf 2 could not bind (a port in use).
  [[nodiscard]] bool failed_to_bind() const;
  // What the session callbacks print by now, one piece per shell_fprintf call ("\n" line ends).
  [[nodiscard]] std::vector<std::string> poll(clock::time_point now);
  [[nodiscard]] std::uint16_t port() const noexcept { return download_.port; }
  // True once an error_line ended the server (the next download may start).
  [[nodiscard]] bool gone() const noexcept { return gone_; }

 private:
  zperf::download download_;
  run_settings settings_;
  clock::time_point start_;
  std::unique_ptr<sys::child_process> child_;
  std::size_t started_ = 0;  // sessions whose start was printed
  std::size_t ended_ = 0;    // sessions whose end was printed
  bool gone_ = false;
};

}  // namespace hil::mcu_sim
