// A firmware's ping at its console: the connectivity check of a DUT behind its console, where the
// dialect has a ping (docs/console-duts.md "Connectivity"). Like the iperf tables of dialect.hpp,
// one table per firmware of what to type, what ends it and how its lines read, pure functions
// over text; run_ping types it and waits for its end.
//
//   run_ping ── `ping <PC> -c 4 -s 64` typed (echo checked) ── an end marker awaited until the
//   longest the firmware's ping can take (every request waited out) ── the prompt, when it did not
//   come back before ──▶ ping_report
//                         │ no end by then
//                         ▼
//   the reset command (when the profile has one) ── run_stuck naming the markers and the last line
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hil/console/pattern.hpp"
#include "hil/console/terminal.hpp"
#include "hil/firmware/dialect.hpp"
#include "hil/firmware/firmware_run.hpp"

namespace hil::firmware {

struct ping_request {
  std::string peer_address;
  unsigned count = 4;                // echo requests
  std::uint32_t payload_bytes = 64;  // each request's ICMP payload
};

// What the firmware printed about one ping, as it printed it.
struct ping_report {
  std::vector<double> rtt_ms;           // one per reply line, in order
  std::optional<unsigned> transmitted;  // its summary's figures, when it printed one
  std::optional<unsigned> received;
  std::vector<std::string> errors;  // its failure lines, quoted
};

struct ping_dialect {
  // The command line; throws std::invalid_argument naming what the firmware cannot be asked.
  std::function<std::string(const ping_request&)> command;
  // What ends the ping on the console, ended well or not.
  std::function<std::vector<console::pattern>(const ping_request&)> end_markers;
  // The report in the ping's text (from the typed command through its end marker).
  std::function<ping_report(std::string_view)> parse;
  // The longest the firmware takes to end the ping by itself: every request waited out.
  std::function<std::chrono::milliseconds(const ping_request&)> longest;
};

// The ST67W6X CLI's `ping <ip> [-c count] [-s size] [-i interval]` (its LwIP application): one
// request a second, a `Ping: N ms` log line per reply, a summary line at the end; it stops at the
// first reply missing for 3.5 s (`Ping timeout`, `recvfrom() failed`) without a summary.
[[nodiscard]] const ping_dialect& st67w6x_ping();

// The ping of the dialect named name; nullptr when hilperf knows none for that firmware.
[[nodiscard]] const ping_dialect* ping_of(std::string_view dialect_name);

// Types p's ping for request at a console that shows d's prompt (after wake) and waits as drawn
// above; the firmware's report. Throws std::invalid_argument for a request p cannot express,
// std::runtime_error for a garbled echo (console::terminal), run_stuck when no end came.
ping_report run_ping(console::terminal& t, const dialect& d, const ping_dialect& p,
                     const ping_request& request, const run_limits& limits);

}  // namespace hil::firmware
