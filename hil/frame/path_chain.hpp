// The frame path chosen at run time: AF_XDP, else the AF_PACKET TX ring, else a UDP socket (or any
// order a caller names). Each step that is skipped says why — no privilege, no kernel support,
// driver refused, not built — and the one used is a value a record carries (path_name, mode).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "hil/frame/af_packet_ring.hpp"
#include "hil/frame/af_xdp_tx.hpp"
#include "hil/frame/frame_builder.hpp"
#include "hil/frame/frame_sender.hpp"
#include "hil/frame/path_error.hpp"
#include "hil/link/link_control.hpp"

namespace hil::frame {

struct chain_request {
  std::string ifname;
  std::vector<tx_path> order{tx_path::af_xdp, tx_path::af_packet_ring, tx_path::udp_socket};
  xsk_options xsk;
  ring_options ring;
  std::uint32_t socket_batch = 256;  // the socket path's largest sendmmsg
};

struct skipped_path {
  tx_path path = tx_path::af_xdp;
  refusal why = refusal::other;
  std::string detail;  // the failed step and the kernel's error
};

struct opened_path {
  std::unique_ptr<frame_sender> sender;
  std::vector<skipped_path> skipped;  // in the order tried

  // "af_packet_ring (qdisc bypassed); af_xdp skipped: no privilege (AF_XDP socket on eth0:
  // Operation not permitted)".
  [[nodiscard]] std::string summary() const;
};

// Opens the first path of request.order that works on request.ifname, in the calling thread's
// namespace. Throws std::system_error listing every path's refusal when none does.
[[nodiscard]] opened_path open_frame_path(const chain_request& request,
                                          const frame_template& frame);

// One path alone (no fallback). Throws path_unavailable.
[[nodiscard]] std::unique_ptr<frame_sender> open_path(tx_path path, const chain_request& request,
                                                      const frame_template& frame);

// The flow's frame between ifname and dst_ip: ifname's MAC and the neighbour's from the kernel's
// table (resolved when absent, hil/link/neighbour.hpp), the ports and size given. next_hop is the
// neighbour to resolve when dst_ip is not on-link (empty: dst_ip itself).
[[nodiscard]] frame_spec flow_frame(link::link_control& link, const std::string& ifname,
                                    const std::string& src_ip, const std::string& dst_ip,
                                    std::uint16_t src_port, std::uint16_t dst_port,
                                    std::uint32_t frame_bytes, const std::string& next_hop = "");

}  // namespace hil::frame
