#include "hil/measure/traffic_checks.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace hil::measure {

std::int64_t udp_datagrams_lost(const stream_result& s) {
  return s.receiver.errors + std::max<std::int64_t>(0, s.sender.packets - s.receiver.packets);
}

verdict check_udp_zero_loss(int mtu, std::uint32_t payload, const stream_result& s,
                            const udp_loss_evidence* evidence) {
  verdict v;
  v.check = "UdpZeroLoss";
  const std::int64_t sent = s.sender.packets;
  const std::int64_t highest = s.receiver.packets;
  const std::int64_t lost = udp_datagrams_lost(s);
  v.observed =
      fmt::format("{}/{} datagrams of {} bytes lost (receiver highest sequence {}, gaps {})", lost,
                  sent, payload, highest, s.receiver.errors);
  v.limit = "0 lost, highest sequence == sent";
  v.limit_value = 0;
  v.limit_bound = bound::at_most;
  v.unit = "datagrams";
  // Nothing sent, or a receiver above the sender's count: no loss figure was measured.
  v.judge(sent > 0 && highest <= sent ? std::optional(static_cast<double>(lost)) : std::nullopt);
  if (v.pass) return v;
  if (sent == 0) {
    v.cause = "nothing was sent: the sender failed (see the error above)";
  } else if (highest == 0) {
    v.cause = fmt::format(
        "the peer received no {}-byte IP packet at MTU {}: its NIC may not accept "
        "frames that large — check the peer's MTU and jumbo-frame support "
        "(the test procedure: a PC NIC at MTU 1500 shows 100% loss)",
        mtu, mtu);
  } else if (evidence != nullptr && !evidence->dut_errors.empty()) {
    v.cause = fmt::format(
        "the DUT's interface counted errors or drops during the test ({}): its driver, DMA ring "
        "or the cable",
        evidence->dut_errors);
  } else if (evidence != nullptr && evidence->dut_tx_packets && *evidence->dut_tx_packets < sent) {
    v.cause = fmt::format(
        "fewer frames left the DUT (tx_packets +{}) than datagrams were sent ({}): dropped on the "
        "board before the wire — its queueing discipline or driver",
        *evidence->dut_tx_packets, sent);
  } else if (evidence != nullptr && evidence->dut_tx_packets) {
    v.cause = fmt::format(
        "every datagram left the DUT (tx_packets +{} for {} sent, no errors), so they were lost "
        "beyond it: most likely in the peer's UDP receive buffer ({}; on a Linux PC raise "
        "net.core.rmem_max, the procedure's common issue 3), else the switch or cable (check the "
        "PC's "
        "interface counters)",
        *evidence->dut_tx_packets, sent,
        evidence->stock_peer ? fmt::format("a stock iperf3 server, asked for {} bytes as -w does",
                                           evidence->peer_buffer_bytes)
                             : fmt::format("asked for {} bytes", evidence->peer_buffer_bytes));
  } else {
    v.cause =
        "datagrams lost on the path: check the link's error counters, cable quality, and "
        "receive buffers (sysctl net.core.rmem_max)";
  }
  return v;
}

verdict check_datagram_counts(const std::vector<tier_count>& tiers, std::uint64_t bits_per_second,
                              double seconds, double tolerance_percent) {
  verdict v;
  v.check = "DatagramCounts";
  v.limit = fmt::format("each within {:.1f}% of rate·t/(8·payload), strictly decreasing",
                        tolerance_percent);
  v.pass = !tiers.empty();
  std::string observed;
  std::string cause;
  for (std::size_t i = 0; i < tiers.size(); ++i) {
    const auto& t = tiers[i];
    const double ideal = ideal_datagrams(bits_per_second, seconds, t.payload);
    const double off = (static_cast<double>(t.datagrams) / ideal - 1.0) * 100.0;
    observed += fmt::format("{}mtu{}: {} (ideal {:.0f}, {:+.2f}%)", i == 0 ? "" : "; ", t.mtu,
                            t.datagrams, ideal, off);
    if (std::abs(off) > tolerance_percent) {
      v.pass = false;
      const double implied = static_cast<double>(bits_per_second) * seconds / 8.0 /
                             std::max<double>(1.0, static_cast<double>(t.datagrams));
      cause += fmt::format(
          "{}mtu{} sent {} datagrams, as if the payload were {:.0f} bytes instead "
          "of {} (wrong -l for the tier? each tier must use MTU − 28)",
          cause.empty() ? "" : "; ", t.mtu, t.datagrams, implied, t.payload);
    }
    if (i > 0 && t.datagrams >= tiers[i - 1].datagrams) {
      v.pass = false;
      cause += fmt::format("{}the count did not fall from mtu{} to mtu{}",
                           cause.empty() ? "" : "; ", tiers[i - 1].mtu, t.mtu);
    }
  }
  v.observed = observed;
  if (!v.pass) v.cause = cause.empty() ? "no tier was measured" : cause;
  return v;
}

cpu_evidence cpu_evidence_of(const test_result& r) {
  return cpu_evidence{r.local_cpu, r.remote_cpu, r.local_data_thread};
}

std::string cpu_limit_cause(const cpu_evidence& e) {
  std::string cause;
  if (const auto& t = e.dut_data_thread; t && t->busy_percent() >= cpu_bound_busy_percent) {
    // Waiting runnable is time the thread wanted but another task or a CPU quota had.
    const std::string why =
        t->waiting_percent > t->on_cpu_percent
            ? "other tasks or a CPU quota held the CPU most of that time: stop the other load on "
              "the DUT or lift the quota"
            : "it ran flat out: the core is too slow for this rate with this engine";
    cause = fmt::format(
        "the DUT's CPU was the limit: its data thread wanted a CPU {:.0f} % of the test (ran "
        "{:.0f} %, waited for a CPU {:.0f} %; the DUT process used {:.0f} % of a core); {}. The "
        "figure measures the board's CPU, not its port",
        t->busy_percent(), t->on_cpu_percent, t->waiting_percent, e.dut.total, why);
  }
  if (e.peer.total >= peer_cpu_busy_percent) {
    cause += fmt::format(
        "{}the peer's process used {:.0f} % of a core: the peer may be the limit (another task "
        "on the PC, or a slow PC)",
        cause.empty() ? "" : "; ", e.peer.total);
  }
  return cause;
}

verdict check_tcp_throughput(const char* direction, double goodput_bps, double limit_mbps,
                             const cpu_evidence* cpu) {
  verdict v;
  v.check = fmt::format("TcpThroughput {}", direction);
  v.observed = fmt::format("{:.1f} Mbit/s receiver-side goodput", goodput_bps / 1e6);
  v.limit = fmt::format(">= {:.1f} Mbit/s", limit_mbps);
  v.limit_value = limit_mbps;
  v.limit_bound = bound::at_least;
  v.unit = "Mbit/s";
  v.judge(goodput_bps / 1e6);
  if (!v.pass) {
    const std::string link_cause =
        "link not negotiated at full speed (see LinkSpeed), other load on the DUT or the "
        "peer, or small TCP buffers (sysctl net.core.rmem_max / wmem_max)";
    const std::string cpu_cause = cpu ? cpu_limit_cause(*cpu) : std::string();
    v.cause = cpu_cause.empty() ? link_cause : cpu_cause + "; if not that: " + link_cause;
  }
  return v;
}

verdict check_retransmits(const std::vector<std::int64_t>& per_interval, std::int64_t limit) {
  verdict v;
  v.check = "TcpRetransmits";
  const auto worst = per_interval.empty()
                         ? std::int64_t{-1}
                         : *std::max_element(per_interval.begin(), per_interval.end());
  std::int64_t total = 0;
  for (const auto r : per_interval) total += std::max<std::int64_t>(r, 0);
  v.observed = fmt::format("worst interval {} retransmits ({} in {} intervals)", worst, total,
                           per_interval.size());
  v.limit = fmt::format("<= {} per interval (thresholds.tcp_retransmits_per_interval)", limit);
  v.limit_value = static_cast<double>(limit);
  v.limit_bound = bound::at_most;
  v.unit = "retransmits per interval";
  v.judge(!per_interval.empty() && worst >= 0 ? std::optional(static_cast<double>(worst))
                                              : std::nullopt);
  if (!v.pass) {
    v.cause = per_interval.empty() || worst < 0
                  ? "no TCP_INFO retransmit counts were sampled"
                  : "segments are being lost: duplex mismatch, a bad cable, or a congested link";
  }
  return v;
}

double receiver_goodput_bps(const test_result& r, bool local_sends) {
  std::uint64_t bytes = 0;
  double seconds = 0;
  for (const auto& s : r.streams) {
    if (s.local_sends != local_sends) continue;
    bytes += s.receiver.bytes;
    seconds = std::max(seconds, s.receiver.seconds);
  }
  return bits_per_second(bytes, seconds);
}

double ideal_datagrams(std::uint64_t bits_per_second, double seconds, std::uint32_t payload) {
  return static_cast<double>(bits_per_second) * seconds / (8.0 * payload);
}

std::vector<double> interval_mbps(const test_result& r) {
  std::vector<double> out;
  for (const auto& interval : r.intervals) {
    double bits = 0;
    for (const auto& s : interval.streams) bits += s.bits_per_second();
    out.push_back(bits / 1e6);
  }
  return out;
}

std::vector<std::int64_t> retransmits_per_interval(const test_result& r) {
  std::vector<std::int64_t> out;
  for (const auto& interval : r.intervals) {
    std::int64_t sum = -1;
    for (const auto& s : interval.streams) {
      if (!s.sender || s.retransmits < 0 || s.omitted) continue;
      sum = std::max<std::int64_t>(sum, 0) + s.retransmits;
    }
    if (sum >= 0) out.push_back(sum);
  }
  return out;
}

}  // namespace hil::measure
