// An Ethernet port emulated in XDP on the receiving end of a link: a token bucket charges each
// frame its wire size (hil/xdp/wire.hpp: the frame, padded to 64 bytes with the FCS, plus
// preamble, SFD and inter-frame gap) at the configured line rate, passes what the port could have
// carried and drops the rest.
//
//   sender ──veth──► hil_port (XDP, receiving CPU) ── tokens ≥ charge ─► PASS (then the stack, or
//                       bucket: +rate_bps per ns,                         the frame counter)
//                       capacity bucket_bits · 10⁹  └─ otherwise ──────► DROP
//
// So the port's cost lands on the receiving core, not the sender's as with tbf on the sending end
// (whose watchdog and the veth's wake-ups run in the sender's context). There is no queue: a
// burst above the bucket is lost, not delayed; tbf stays where a queue is the point.
//
// Construct and use it in the interface's network namespace (netlink runs in the caller's).
#pragma once

#include <cstdint>
#include <string>

#include "hil/link/counters.hpp"
#include "hil/link/link_control.hpp"
#include "hil/xdp/wire.hpp"
#include "hil/xdp/xdp_attach.hpp"

namespace hil::xdp {

struct port_tally {
  std::uint64_t frames = 0;
  std::uint64_t bytes = 0;       // as XDP sees them: without the FCS
  std::uint64_t wire_bytes = 0;  // as the bucket charged them
};

struct port_reading {
  port_tally passed;
  port_tally dropped;
  bucket_state bucket;            // the window since the first frame after configure()
  link::link_counters interface;  // the interface's counters, read after the program's
};

class port_shaper {
 public:
  // Attaches the port emulation to ifname, configured as s (config_of(s): std::invalid_argument
  // for a bad setting). Throws std::system_error when XDP cannot attach (xdp_attachment).
  port_shaper(const std::string& ifname, const port_setting& s,
              attach_preference pref = attach_preference::native_then_generic);

  // A new setting: counters zeroed, the bucket full again and a new window from the next frame.
  // Meant between trials: a frame arriving meanwhile may be charged under either setting.
  void configure(const port_setting& s);

  // The counters summed over the CPUs, the bucket (read under its lock), then the interface's.
  [[nodiscard]] port_reading read();

  [[nodiscard]] const port_config& config() const noexcept { return config_; }
  [[nodiscard]] const xdp_attachment& attachment() const noexcept { return program_; }

 private:
  [[nodiscard]] port_tally sum(std::uint32_t slot) const;

  xdp_attachment program_;
  link::link_control link_;
  port_config config_;
  std::uint64_t generation_ = 0;  // the map's generation: bumped by every configure()
};

}  // namespace hil::xdp
