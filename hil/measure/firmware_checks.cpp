#include "hil/measure/firmware_checks.hpp"

#include <cmath>

#include <fmt/format.h>

namespace hil::measure {
namespace {

std::string row_name(const firmware_row& r) {
  return fmt::format("{}{}", r.udp ? "Udp" : "Tcp", r.dut_sends ? "Tx" : "Rx");
}

}  // namespace

verdict check_firmware_row(const firmware_row& row, double min_mbps) {
  verdict v;
  v.check = "FirmwareTxRx " + row_name(row);
  v.limit = fmt::format(">= {:.1f} Mbit/s received", min_mbps);
  v.limit_value = min_mbps;
  v.limit_bound = bound::at_least;
  v.unit = "Mbit/s";
  v.judge(row.counted_mbps);
  v.observed = row.counted_mbps
                   ? fmt::format("{:.2f} Mbit/s counted by {}", *row.counted_mbps, row.counted_by)
                   : "no count: " + row.counted_by + " counted nothing";
  if (v.pass) return v;
  if (!row.counted_mbps) {
    v.cause = row.dut_sends ? "the firmware's run sent nothing that arrived: its client did not "
                              "start (see the console log), or nothing routes to the PC"
                            : "the firmware's server reported nothing back: it did not receive "
                              "the stream (see the console log)";
    return v;
  }
  const std::string side =
      row.dut_sends ? "the DUT's sending path (the firmware's iperf task, the network stack, the "
                      "module's link or radio rate, the MCU's clock and CPU load)"
                    : "the DUT's receiving path (buffers in the network stack and the module, "
                      "the MCU's CPU load while it counts)";
  if (row.udp && row.dut_sends && row.asked_mbps > 0 && *row.counted_mbps < 0.9 * row.asked_mbps) {
    v.cause = fmt::format(
        "the firmware sent {:.1f} Mbit/s of the {:.0f} asked, or the link lost the rest: {}",
        *row.counted_mbps, row.asked_mbps, side);
    return v;
  }
  v.cause = "below the row's minimum: " + side;
  return v;
}

std::optional<std::string> firmware_disagreement(const firmware_row& row,
                                                 double tolerance_percent) {
  if (!row.firmware_mbps || !row.counted_mbps || *row.counted_mbps <= 0) return std::nullopt;
  const double percent = 100 * (*row.firmware_mbps - *row.counted_mbps) / *row.counted_mbps;
  if (std::abs(percent) <= tolerance_percent) return std::nullopt;
  return fmt::format(
      "the firmware printed {:.1f} Mbit/s, {:+.1f} % from the {:.2f} Mbit/s {} counted "
      "(firmware_iperf.report_tolerance_percent {:g}): its own figure is not the verdict",
      *row.firmware_mbps, percent, *row.counted_mbps, row.counted_by, tolerance_percent);
}

verdict check_firmware_ping(const firmware_ping& ping) {
  verdict v;
  v.check = "FirmwarePing";
  v.limit = fmt::format("{}/{} replies", ping.asked, ping.asked);
  v.observed = fmt::format(
      "{}/{} echo replies from {} (the firmware's ping{})", ping.replies, ping.asked, ping.peer,
      ping.avg_rtt_ms ? fmt::format(", avg rtt {:.0f} ms", *ping.avg_rtt_ms) : std::string());
  v.pass = ping.asked > 0 && ping.replies == ping.asked;
  if (v.pass) return v;
  const std::string said = ping.errors.empty()
                               ? std::string()
                               : fmt::format(" (the firmware said \"{}\")", ping.errors.front());
  if (ping.replies == 0) {
    v.cause = "no reply from the PC" + said +
              ": the DUT's link or address (did the set-up commands join the network and get an "
              "address?), another subnet, or the PC's firewall dropping ICMP";
  } else {
    v.cause = fmt::format(
        "the firmware's ping stops at the first reply missing: {} of {} came before it{}; a "
        "flapping link, a busy radio or module, or an overloaded PC",
        ping.replies, ping.asked, said);
  }
  return v;
}

}  // namespace hil::measure
