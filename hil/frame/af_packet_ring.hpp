// The AF_PACKET path: a TPACKET_V2 TX ring mapped once, every slot pre-filled with the flow's
// frame, PACKET_QDISC_BYPASS on (the frames go straight to the driver, as pktgen's do: no qdisc,
// no tc shaping, invisible to other packet sockets), bound with protocol 0 (a TX-only socket: no
// receive hook), and one send(MSG_DONTWAIT) per batch pushing every slot marked for sending.
// The kernel hands a slot back (TP_STATUS_AVAILABLE) when the driver freed its skb.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "hil/frame/frame_builder.hpp"
#include "hil/frame/frame_sender.hpp"

namespace hil::frame {

struct ring_options {
  std::uint32_t frames = 1024;  // ring slots (a power of two)
  bool qdisc_bypass = true;     // PACKET_QDISC_BYPASS; false goes through the qdisc
};

// Opens the path on ifname in the calling thread's network namespace. Throws path_unavailable
// naming the step (socket, PACKET_VERSION, PACKET_QDISC_BYPASS, PACKET_TX_RING, mmap, bind).
[[nodiscard]] std::unique_ptr<frame_sender> open_af_packet_ring(const std::string& ifname,
                                                                const frame_template& frame,
                                                                const ring_options& options = {});

}  // namespace hil::frame
