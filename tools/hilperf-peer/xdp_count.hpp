// hilperf-peer's frame counter below the socket layer: hil::xdp's frame counter behind the
// server's seam (hil/session/frame_count_hook.hpp), so that only this program, not hil::hil,
// links libbpf and libxdp (docs/xdp.md, "The peer's count").
#pragma once

#include "hil/session/frame_count_hook.hpp"

namespace hil::peer {

// The server's xdp_counter: attaches hil::xdp::frame_counter (drop after counting) for the UDP
// port on the interface that holds the local address, in this process's network namespace.
// Throws std::system_error with the reason it cannot: XDP not built in, a missing capability
// (xdp_support()), no interface holding the address, the kernel or libxdp refusing (another XDP
// program already on the interface, for example the simulated port's).
[[nodiscard]] session::frame_count_attach xdp_frame_counter();

}  // namespace hil::peer
