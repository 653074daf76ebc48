#include "hil/measure/frame_path.hpp"

namespace hil::measure {

const char* direction_name(frame_direction d) {
  return d == frame_direction::dut_receives ? "dut_receives" : "dut_transmits";
}

bool parse_direction(const std::string& word, frame_direction& out) {
  if (word == "dut_transmits") {
    out = frame_direction::dut_transmits;
  } else if (word == "dut_receives") {
    out = frame_direction::dut_receives;
  } else {
    return false;
  }
  return true;
}

std::string frame_path_name(std::uint32_t frame_bytes, const frame_path& p) {
  std::string name = "frame" + std::to_string(frame_bytes);
  if (p.ipv6()) name += "_ipv6";
  if (p.dut_receives()) name += "_dut_receives";
  return name;
}

std::string frame_path_words(const frame_path& p) {
  if (p.ipv6()) return p.dut_receives() ? "IPv6, DUT receives" : "IPv6";
  return p.dut_receives() ? "DUT receives" : "";
}

std::string sender_limit_words(frame_direction d) {
  if (d == frame_direction::dut_receives) {
    return "the peer's CPU, its iperf3 server or its socket buffer (net.core.wmem_max on the "
           "peer) is the limit, not the link: the peer sends in this direction";
  }
  return "the DUT's CPU or the tool is the limit, not the link";
}

std::string port_loss_causes(frame_direction d) {
  if (d == frame_direction::dut_receives) {
    return "at small frames the DUT's receive path — its driver's RX ring (ethtool -g), interrupt "
           "rate (coalescing, ethtool -c) or the CPU time its softirq gets (the drops show in "
           "rx_dropped or rx_missed_errors); at large frames the link itself (negotiated speed, "
           "flow control) or the peer's transmit path";
  }
  return "at small frames the DUT's driver, DMA ring or interrupt rate (coalescing), or its CPU "
         "receiving the transmit completions; at large frames the link itself (negotiated speed, "
         "flow control) or the peer's receive path";
}

std::string queue_causes(frame_direction d) {
  if (d == frame_direction::dut_receives) {
    return "the peer's transmit queue and the DUT's RX ring filling because the frames come "
           "faster than the DUT takes them, interrupt coalescing holding them on the DUT";
  }
  return "the DUT's transmit queue (txqueuelen, the qdisc) and TX ring (ethtool -g) filling "
         "because the port drains them slower than they come, interrupt coalescing holding "
         "completions, or the peer's receive path";
}

}  // namespace hil::measure
