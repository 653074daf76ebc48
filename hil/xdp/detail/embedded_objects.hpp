// The XDP programs' objects as clang built them, embedded by ci/cmake/bpf.cmake (generated
// sources in the build tree). Only for xdp_attach.cpp, and only in a build with the programs.
#pragma once

#include <cstddef>

namespace hil::xdp::detail {

extern const unsigned char frame_counter_object[];
extern const std::size_t frame_counter_object_size;
extern const unsigned char port_shaper_object[];
extern const std::size_t port_shaper_object_size;

}  // namespace hil::xdp::detail
