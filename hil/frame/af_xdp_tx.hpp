// The AF_XDP path through libxdp's xsk API: a UMEM of chunks each pre-filled with the flow's
// frame, a TX-only socket (no fill ring use, no RX ring), descriptors written per batch and the
// kernel woken only when it asks (XDP_USE_NEED_WAKEUP). Zero-copy where the driver has it
// (XDP_ZEROCOPY: the NIC's DMA reads the UMEM), else copy mode (the kernel copies each frame into
// an skb and hands it to the driver, as AF_PACKET with the qdisc bypassed does). A chunk is reused
// once the completion ring gives it back; completions come in order.
//
// Built only with libxdp (HIL_HAVE_LIBXDP); without it open_af_xdp throws path_unavailable with
// refusal::not_built, and the chain goes on to the next path.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "hil/frame/frame_builder.hpp"
#include "hil/frame/frame_sender.hpp"

namespace hil::frame {

struct xsk_options {
  std::uint32_t frames = 2048;  // UMEM chunks and TX ring descriptors (a power of two)
  std::uint32_t queue = 0;      // the interface's queue to bind
  bool zero_copy = true;        // try XDP_ZEROCOPY first (copy mode when the driver refuses)
  bool need_wakeup = true;      // XDP_USE_NEED_WAKEUP
  // Let libxdp attach its default redirect program: a TX-only socket needs none, but some drivers
  // (Intel's, in zero-copy) create their XDP TX queues only while a program is attached.
  bool load_program = false;
};

// True when this build has the path.
[[nodiscard]] bool af_xdp_built();

// Opens the path on ifname in the calling thread's network namespace. Throws path_unavailable:
// not built, no privilege (CAP_NET_RAW/CAP_NET_ADMIN), no kernel support (CONFIG_XDP_SOCKETS), or
// the driver refusing both modes, with the zero-copy refusal's reason in the message. The
// sender's mode() is "zero-copy" or "copy (zero-copy refused: …)".
[[nodiscard]] std::unique_ptr<frame_sender> open_af_xdp(const std::string& ifname,
                                                        const frame_template& frame,
                                                        const xsk_options& options = {});

}  // namespace hil::frame
