// What the emulator's netns tests share (mcu_sim_test.cpp: the rows and the shell;
// mcu_sim_fault_test.cpp: the fault switches; firmware_run_test.cpp, zperf_esp_run_test.cpp: runs
// through hil::firmware): the emulator started in the DUT namespace of this
// run's bench, a host at its console with hilperf's ST67W6X dialect, stock iPerf 2 in the peer
// namespace. Port 5001 is fixed on purpose: the peer namespace belongs to this test process alone.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "hil/console/port.hpp"
#include "hil/console/terminal.hpp"
#include "hil/console/transcript.hpp"
#include "hil/firmware/dialect.hpp"
#include "hil/firmware/firmware_run.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/process.hpp"
#include "hil/tests/eventually.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace hil::mcu_sim::test {

using namespace std::chrono_literals;
using hil::console::pattern;
using hil::firmware::iperf_protocol;
using hil::firmware::iperf_request;
using hil::firmware::iperf_role;

inline const hil::bench::sim_layout& bench() { return hil::test::run_layout(); }
inline const hil::firmware::dialect& st() { return hil::firmware::st67w6x(); }
inline std::string dut_address() { return hil::sys::without_prefix(bench().dut_ipv4); }
inline std::string peer_address() { return hil::sys::without_prefix(bench().peer_ipv4); }

inline std::vector<std::string> in_netns(const std::string& ns, std::vector<std::string> argv) {
  argv.insert(argv.begin(), {"ip", "netns", "exec", ns});
  return argv;
}

// The emulator in the DUT namespace, with flags; its pty path from its "console <path>" line.
struct mcu_sim {
  explicit mcu_sim(std::vector<std::string> flags)
      : process(in_netns(bench().dut_netns, [&] {
          flags.insert(flags.begin(), HILPERF_MCU_SIM_BINARY);
          return flags;
        }())) {
    EXPECT_TRUE(process.wait_for_output("\n", 10s)) << process.output();
    const std::string out = process.output();
    const auto at = out.find("console ");
    if (at != std::string::npos) tty = out.substr(at + 8, out.find('\n', at) - at - 8);
  }
  hil::sys::child_process process;
  std::string tty;
};

// A host at the emulator's console, as a case is at a board's: its pty, or where a console server
// serves it (rfc2217://…, asked for baud).
struct host_console {
  explicit host_console(const std::string& tty, std::chrono::milliseconds echo_timeout = 2s,
                        int baud = 921600)
      : port({tty, baud}, hil::console::port::clock::now() + 5s),
        term(port, {st().line_ending, true, echo_timeout, 0ms}, log) {}
  // A bare line end, then the prompt (what the firmware printed before is read).
  void wait_for_prompt() {
    term.type("");
    (void)term.expect(std::vector<pattern>{st().prompt}, 5s);
    term.read_all();
  }
  // The text through pattern p.
  std::string expect(const pattern& p, std::chrono::milliseconds timeout) {
    const auto m = term.expect(std::vector<pattern>{p}, timeout);
    return m.before + m.matched;
  }
  // Types request's command and reads its run through the end marker.
  hil::firmware::firmware_report run(const iperf_request& r, std::chrono::milliseconds timeout) {
    term.type(st().command(r));
    const auto m = term.expect(st().end_markers(r), timeout);
    return st().parse(m.before + m.matched);
  }
  hil::console::port port;
  hil::console::transcript log;
  hil::console::terminal term;
};

inline iperf_request request(iperf_role role, iperf_protocol protocol, int seconds = 2) {
  iperf_request r;
  r.role = role;
  r.protocol = protocol;
  r.peer_address = peer_address();
  r.bitrate_bps = 20'000'000;
  r.duration = std::chrono::seconds(seconds);
  return r;
}

// Stock iPerf 2 in the peer namespace.
inline std::unique_ptr<hil::sys::child_process> peer_iperf(std::vector<std::string> args) {
  args.insert(args.begin(), "iperf");
  return std::make_unique<hil::sys::child_process>(in_netns(bench().peer_netns, args));
}

// Stock iPerf 2's server on port 5001 in the peer namespace, with more of its flags, listening.
inline std::unique_ptr<hil::sys::child_process> peer_server(bool udp,
                                                            std::vector<std::string> more = {}) {
  std::vector<std::string> args{"-s", "-p", "5001"};
  if (udp) args.emplace_back("-u");
  args.insert(args.end(), more.begin(), more.end());
  auto server = peer_iperf(args);
  EXPECT_TRUE(server->wait_for_output("Server listening", 10s)) << server->output();
  const std::string state = udp ? "-lun" : "-ltn";
  EXPECT_TRUE(hil::test::eventually(
      [&] {
        const auto r =
            hil::sys::run(in_netns(bench().peer_netns, {"ss", "-H", state, "sport = :5001"}));
        return r.output.find("5001") != std::string::npos;
      },
      5s));
  return server;
}

// A case's limits for a run on the emulator, reset being the firmware's reset command.
inline hil::firmware::run_limits limits(const std::string& reset = "reset") {
  hil::firmware::run_limits l;
  l.prompt_timeout = 5s;
  l.end_slack = 10s;
  l.reset_command = reset;
  return l;
}

// A run through firmware_run with dialect d: woken, started, finished.
inline hil::firmware::firmware_report run(host_console& host, const hil::firmware::dialect& d,
                                          const iperf_request& r,
                                          const hil::firmware::run_limits& l) {
  hil::firmware::wake(host.term, d, l);
  hil::firmware::firmware_run dut(host.term, d, r, l);
  return dut.finish();
}

}  // namespace hil::mcu_sim::test
