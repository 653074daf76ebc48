#include "hil/frame/frame_sender.hpp"

namespace hil::frame {

const char* path_name(tx_path p) {
  switch (p) {
    case tx_path::af_xdp:
      return "af_xdp";
    case tx_path::af_packet_ring:
      return "af_packet_ring";
    case tx_path::udp_socket:
      break;
  }
  return "udp_socket";
}

}  // namespace hil::frame
