// Evaluators for the traffic checks of procedure 000 (docs/checks.md): UDP zero loss per MTU tier,
// datagram counts across tiers, TCP throughput each way, retransmits per interval. Pure functions
// over typed results; each failed verdict carries the likely cause from the procedure's common
// issues.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hil/measure/results.hpp"
#include "hil/measure/verdict.hpp"

namespace hil::measure {

// Where a UDP test's loss can have happened, as far as the DUT can tell.
struct udp_loss_evidence {
  std::optional<std::int64_t> dut_tx_packets;  // the DUT interface's tx_packets growth, if read
  std::string dut_errors;     // the DUT counters' error and drop growth in words; empty when clean
  bool stock_peer = false;    // the receiver is a stock iperf3 server
  int peer_buffer_bytes = 0;  // the receive buffer asked of the peer (-w); 0 none
};

// A UDP stream's datagrams lost, the one meaning of "lost" in a UDP tier's verdict and record:
// the receiver's sequence gaps plus every datagram sent above the highest sequence it received
// (lost at the tail, which a receiver cannot see). 0 exactly when the receiver counted no gap and
// its highest sequence is at least the datagrams sent.
[[nodiscard]] std::int64_t udp_datagrams_lost(const stream_result& s);

// UdpZeroLoss: the receiver lost nothing and its highest sequence equals the datagrams sent
// (stricter than iperf3's own summary, which cannot see losses after the last datagram received).
// With evidence (the DUT sent), a loss is placed: on the board when its counters show drops or
// fewer frames left than datagrams were sent, beyond it — the peer's receive buffer first, then
// the cable — when every datagram left.
verdict check_udp_zero_loss(int mtu, std::uint32_t payload, const stream_result& s,
                            const udp_loss_evidence* evidence = nullptr);

// One tier's datagram count for DatagramCounts.
struct tier_count {
  int mtu = 0;
  std::uint32_t payload = 0;
  std::int64_t datagrams = 0;  // what the sender sent
};

// DatagramCounts: each tier within tolerance_percent of rate·t/(8·payload), strictly decreasing
// as the MTU grows (a wrong -l for a tier shows up here, as procedure 000 warns).
verdict check_datagram_counts(const std::vector<tier_count>& tiers, std::uint64_t bits_per_second,
                              double seconds, double tolerance_percent);

// What each end's CPU did over a traffic test. The DUT is the near end, the one running the cases
// (docs/cpu-limit.md); the peer's figure is what it reported (iperf3's cpu_utilization_percent).
struct cpu_evidence {
  cpu_usage dut;                                   // the DUT's process, percent of one core
  cpu_usage peer;                                  // the peer's process, as it reported it
  std::optional<data_thread_cpu> dut_data_thread;  // the DUT's busiest data thread
};
[[nodiscard]] cpu_evidence cpu_evidence_of(const test_result& r);

// A data thread that wanted a CPU (ran or waited for one) at least this share of the test never
// waited for the network: the CPU set its rate.
inline constexpr double cpu_bound_busy_percent = 90;
// A peer process using at least this share of one core may have been the limit.
inline constexpr double peer_cpu_busy_percent = 90;

// The part of a shortfall's likely cause a CPU explains ("the DUT's CPU was the limit: …"), or
// empty when neither end looked CPU-bound.
[[nodiscard]] std::string cpu_limit_cause(const cpu_evidence& e);

// TcpThroughput: receiver-side goodput of all streams at least limit_mbps. A failure names the
// CPU first when cpu shows the DUT's (or the peer's) CPU was the limit, the link and buffers after.
verdict check_tcp_throughput(const char* direction, double goodput_bps, double limit_mbps,
                             const cpu_evidence* cpu = nullptr);

// TcpRetransmits: no interval's retransmits (summed over streams) above the limit.
verdict check_retransmits(const std::vector<std::int64_t>& per_interval, std::int64_t limit);

// Receiver-side goodput of a result in bits/s: payload bytes received over the receivers' time.
double receiver_goodput_bps(const test_result& r, bool local_sends);

// Datagrams a paced sender sends of payload bytes each at bits_per_second for seconds:
// rate·t/(8·payload), the procedure's ideal (docs/checks.md).
double ideal_datagrams(std::uint64_t bits_per_second, double seconds, std::uint32_t payload);

// Throughput per reporting interval in Mbit/s, summed over the streams (as the intervals print it).
std::vector<double> interval_mbps(const test_result& r);

// Retransmits per interval from the local TCP senders, summed over streams.
std::vector<std::int64_t> retransmits_per_interval(const test_result& r);

}  // namespace hil::measure
