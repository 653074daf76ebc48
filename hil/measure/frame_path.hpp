// Which way an RFC 2544 or Y.1564 trial's frames go and over which IP version (docs/checks.md
// "Rfc2544"): the DUT sending to the peer (RFC 2544's usual, the engine on the board offering the
// rate) or the peer sending to the DUT (iperf3's -R: the board's receive path, where RX rings,
// interrupt coalescing and softirq time show), over IPv4 or IPv6 (a 20-byte larger header, so a
// frame carries 20 fewer payload bytes). It names the cases and checks ("frame64",
// "frame64_dut_receives", "frame512_ipv6", "frame512_ipv6_dut_receives") and words their causes:
// who sent, whose queue holds frames, whose receive path loses them.
#pragma once

#include <cstdint>
#include <string>

namespace hil::measure {

enum class frame_direction { dut_transmits, dut_receives };

struct frame_path {
  frame_direction direction = frame_direction::dut_transmits;
  int ip_version = 4;  // 4 or 6

  [[nodiscard]] bool ipv6() const { return ip_version == 6; }
  [[nodiscard]] bool dut_receives() const { return direction == frame_direction::dut_receives; }
  friend bool operator==(const frame_path&, const frame_path&) = default;
};

// "dut_transmits" / "dut_receives", as records and profiles spell them; the parse returns false
// (out unchanged) for any other word.
[[nodiscard]] const char* direction_name(frame_direction d);
[[nodiscard]] bool parse_direction(const std::string& word, frame_direction& out);

// "frame64" for IPv4 frames the DUT sends; "_ipv6" and "_dut_receives" appended otherwise.
[[nodiscard]] std::string frame_path_name(std::uint32_t frame_bytes, const frame_path& p);

// "" for IPv4 frames the DUT sends (the default path); else "DUT receives", "IPv6" or
// "IPv6, DUT receives", for a report's column.
[[nodiscard]] std::string frame_path_words(const frame_path& p);

// Why a sender that fell short of its rate is not the port: the DUT's CPU or our engine when the
// DUT sends, the peer's CPU, its iperf3 server or its socket buffer when the peer does.
[[nodiscard]] std::string sender_limit_words(frame_direction d);

// Where a port loses frames below its line rate, for the throughput and frame loss causes: on the
// sending side's driver (transmit completions) or the receiving DUT's (RX ring, interrupts).
[[nodiscard]] std::string port_loss_causes(frame_direction d);

// Which queues hold frames while the port drains them slower than they come: the DUT's transmit
// queue and TX ring, or the peer's and the DUT's receive ring.
[[nodiscard]] std::string queue_causes(frame_direction d);

}  // namespace hil::measure
