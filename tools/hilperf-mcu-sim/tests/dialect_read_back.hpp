// What the firmwares' report tests share (zperf_report_test.cpp, esp_report_test.cpp): the
// request a case makes for a run, and a case's reading of the console's text through its
// dialect's end markers, in reads of any size.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "hil/console/expect_buffer.hpp"
#include "hil/firmware/dialect.hpp"

namespace hil::mcu_sim::test {

// A run of 27 Mbit/s against the PC at 198.18.0.195.
inline firmware::iperf_request report_request(firmware::iperf_role role,
                                              firmware::iperf_protocol protocol) {
  firmware::iperf_request r;
  r.role = role;
  r.protocol = protocol;
  r.peer_address = "198.18.0.195";
  r.bitrate_bps = 27'000'000;
  return r;
}

// What dialect d reads of request r's run from console, fed in reads of split bytes through the
// first end marker; fails the calling test when none comes.
inline firmware::firmware_report read_back(const firmware::dialect& d,
                                           const firmware::iperf_request& r,
                                           const std::string& console, std::size_t split) {
  console::expect_buffer b;
  const auto markers = d.end_markers(r);
  for (std::size_t at = 0; at < console.size(); at += split) {
    b.feed(std::string_view(console).substr(at, split));
    if (const auto m = b.take(markers)) return d.parse(m->before + m->matched);
  }
  ADD_FAILURE() << "no end marker in " << console;
  return {};
}

}  // namespace hil::mcu_sim::test
