// The seam through which hilperf-peer counts a FRAME_COUNT request's frames in XDP
// (docs/hilperf-extension.md §11): the server (iperf3_server.hpp) knows only this interface, the
// peer's main fills server_options::xdp_counter with hil::xdp's frame counter, so hil::session,
// and with it hil::hil, links neither libbpf nor libxdp.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace hil::session {

// One reading of a counter below the socket layer, every count since it was attached.
struct frame_tally {
  std::uint64_t frames = 0;            // of the flow (UDP destination port)
  std::uint64_t bytes = 0;             // as XDP sees them: without the FCS
  std::uint64_t other_frames = 0;      // of no flow, passed to the stack
  std::uint64_t rx_packets_delta = 0;  // the interface's own rx_packets growth since attached
};

// A counter attached for one test; detached when destroyed.
class frame_count_hook {
 public:
  virtual ~frame_count_hook() = default;
  // "native" or "generic (skb)" (hil::xdp::to_string).
  [[nodiscard]] virtual std::string attach_mode() const = 0;
  // Why native XDP was refused (generic mode), or empty.
  [[nodiscard]] virtual std::string why_not_native() const = 0;
  // The counts since attached. Throws std::system_error when the program's maps cannot be read.
  [[nodiscard]] virtual frame_tally read() = 0;
};

// Attaches a counter of frames to udp_port (then dropped) on the interface that holds
// local_address, every count at zero. Throws std::system_error saying why it cannot (no
// capability, no XDP in this build, no such interface, the interface's program refused): the
// server then counts on its socket and tells the client that reason.
using frame_count_attach = std::function<std::unique_ptr<frame_count_hook>(
    const std::string& local_address, std::uint16_t udp_port)>;

}  // namespace hil::session
