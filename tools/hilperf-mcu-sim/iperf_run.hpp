// One iperf run of the simulated firmware: its traffic played by stock iPerf 2 in a child
// process, its console lines (st67_report.hpp) printed as the firmware's traffic and report
// tasks print them. Owns the child: stopped and reaped on destruction.
//
//   start ─▶ banner lines (a server's once iPerf 2 has bound its port) ─▶ +1 s: report header
//         ─▶ iPerf 2 reported ─▶ report lines ─▶ "iperf exit"
//
//   fault error_line: +1 s ─▶ the line ─▶ "iperf exit" (no traffic)
//   fault never_end:  iPerf 2 reported ─▶ nothing more, ever
//   UDP server, no datagram for udp_server_idle ─▶ its receive error line ─▶ "iperf exit"
//   abort(): "iperf aborting ..." ─▶ child stopped ─▶ "iperf exit" (never_end: only the line)
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "firmware.hpp"
#include "hil/sys/child_process.hpp"
#include "iperf_args.hpp"

namespace hil::mcu_sim {

class iperf_run {
 public:
  using clock = std::chrono::steady_clock;

  // Starts the run args describes at now. Throws std::system_error when iPerf 2 cannot start.
  iperf_run(iperf_args args, run_settings settings, clock::time_point now);
  ~iperf_run();  // stops the child (SIGTERM, then SIGKILL), never throws
  iperf_run(const iperf_run&) = delete;
  iperf_run& operator=(const iperf_run&) = delete;

  // The console lines (each ending in "\n") the run prints by now.
  [[nodiscard]] std::string poll(clock::time_point now);
  // `iperf -a`: the line the shell prints at once; "iperf exit" follows from poll().
  [[nodiscard]] std::string abort();
  // True once "iperf exit" was printed (never with never_end).
  [[nodiscard]] bool finished() const noexcept { return exited_; }

 private:
  // The lines that end the run (after its report or failure), the child stopped.
  std::string end(std::string lines);
  std::string poll_traffic(clock::time_point now);
  // True once the run's socket is ready (a server's bound by its iPerf 2, or 5 s passed).
  bool listening(clock::time_point now) const;
  // The dashed banner of the run.
  std::string banner() const;

  iperf_args args_;
  run_settings settings_;
  clock::time_point start_;
  std::unique_ptr<sys::child_process> child_;  // null with error_line, once stopped
  bool banner_ = false;                        // the banner lines were printed
  bool header_ = false;                        // the report header was printed
  bool aborted_ = false;
  bool ended_ = false;   // the traffic is over (with never_end: silently)
  bool exited_ = false;  // "iperf exit" was printed
};

}  // namespace hil::mcu_sim
