// The XDP frame counter: counts a trial's frames per flow on the receiving interface, below the
// socket layer, at line rate, then drops or passes them.
//
//   frames in ──► hil_count (XDP, per CPU) ──► flow of UDP dst port p? ── yes ─► count, DROP|PASS
//                                                                    └─ no ──► count "other", PASS
//
// A flow is a UDP destination port (IPv4 or IPv6, one optional VLAN tag); up to 64 per counter.
// Counts are per CPU in the kernel and summed here, exact 64-bit integers: frames, and bytes as
// XDP sees them (without the FCS). Each reading carries the interface's own counters, read just
// after the program's, as a second witness (rx_packets counts every frame the interface received,
// the flows' and the others').
//
// Construct and use it in the interface's network namespace (netlink runs in the caller's).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hil/link/counters.hpp"
#include "hil/link/link_control.hpp"
#include "hil/xdp/xdp_attach.hpp"

namespace hil::xdp {

// What the counter does with a frame of a declared flow once counted.
enum class on_match { pass, drop };

struct flow_tally {
  std::uint16_t udp_port = 0;  // 0 for the frames of no declared flow
  std::uint64_t frames = 0;
  std::uint64_t bytes = 0;  // as XDP sees them: without the FCS
};

struct frame_count {
  std::vector<flow_tally> flows;  // in the order the flows were declared
  flow_tally other;               // frames of no declared flow (all passed)
  link::link_counters interface;  // the interface's counters, read after the program's
};

class frame_counter {
 public:
  // Attaches the counter to ifname for udp_ports (at most 64, no duplicates, none 0), every
  // count at zero. Throws std::invalid_argument for bad ports, std::system_error when XDP cannot
  // attach (the reason, xdp_attachment).
  frame_counter(const std::string& ifname, const std::vector<std::uint16_t>& udp_ports,
                on_match action, attach_preference pref = attach_preference::native_then_generic);

  // The counts so far, summed over the CPUs, then the interface's counters.
  [[nodiscard]] frame_count read();
  // Every count back to 0 (frames arriving meanwhile may be counted before or after).
  void zero();

  [[nodiscard]] const xdp_attachment& attachment() const noexcept { return program_; }

 private:
  // The summed counts of slot.
  [[nodiscard]] flow_tally sum(std::uint32_t slot) const;

  std::vector<std::uint16_t> ports_;  // slot i counts ports_[i]
  xdp_attachment program_;
  link::link_control link_;  // the interface's own counters
};

}  // namespace hil::xdp
