// The socket path, for comparison and as the chain's last step: the same flow's UDP payloads
// (stamped as the frames are) through a connected UDP socket bound to the frame's source address
// and port, one sendmmsg per batch. The kernel builds the headers, so what reaches the link is
// the same frame as the other paths build; each datagram costs the kernel's UDP/IP path.
#pragma once

#include <memory>
#include <string>

#include "hil/frame/frame_builder.hpp"
#include "hil/frame/frame_sender.hpp"

namespace hil::frame {

// Opens the path on ifname (SO_BINDTODEVICE) in the calling thread's network namespace, bound to
// the frame's source address and port (port 0: any) and connected to its destination. Throws
// path_unavailable naming the step.
[[nodiscard]] std::unique_ptr<frame_sender> open_udp_socket(const std::string& ifname,
                                                            const frame_template& frame,
                                                            std::uint32_t max_batch = 256);

}  // namespace hil::frame
