#include "hil/frame/path_chain.hpp"

#include <system_error>

#include "hil/frame/udp_socket_tx.hpp"
#include "hil/link/neighbour.hpp"

namespace hil::frame {

std::string opened_path::summary() const {
  std::string s = sender ? std::string(path_name(sender->path())) + " (" + sender->mode() + ")"
                         : std::string("no path");
  for (const auto& k : skipped) {
    s += std::string("; ") + path_name(k.path) + " skipped: " + refusal_words(k.why) + " (" +
         k.detail + ")";
  }
  return s;
}

std::unique_ptr<frame_sender> open_path(tx_path path, const chain_request& request,
                                        const frame_template& frame) {
  switch (path) {
    case tx_path::af_xdp:
      return open_af_xdp(request.ifname, frame, request.xsk);
    case tx_path::af_packet_ring:
      return open_af_packet_ring(request.ifname, frame, request.ring);
    case tx_path::udp_socket:
      break;
  }
  return open_udp_socket(request.ifname, frame, request.socket_batch);
}

opened_path open_frame_path(const chain_request& request, const frame_template& frame) {
  opened_path out;
  for (const tx_path p : request.order) {
    try {
      out.sender = open_path(p, request, frame);
      return out;
    } catch (const path_unavailable& e) {
      out.skipped.push_back({p, e.kind(), e.what()});
    }
  }
  throw std::system_error(std::make_error_code(std::errc::operation_not_supported),
                          "no frame path works on " + request.ifname + ": " + out.summary());
}

frame_spec flow_frame(link::link_control& link, const std::string& ifname,
                      const std::string& src_ip, const std::string& dst_ip, std::uint16_t src_port,
                      std::uint16_t dst_port, std::uint32_t frame_bytes,
                      const std::string& next_hop) {
  frame_spec s;
  s.src_mac = link::interface_mac(link, ifname);
  s.dst_mac = link::neighbour_mac(link, ifname, next_hop.empty() ? dst_ip : next_hop);
  s.src_ip = parse_ip(src_ip);
  s.dst_ip = parse_ip(dst_ip);
  s.src_port = src_port;
  s.dst_port = dst_port;
  s.frame_bytes = frame_bytes;
  return s;
}

}  // namespace hil::frame
