#include "hil/session/frame_count_service.hpp"

#include <system_error>

namespace hil::session {
namespace {

// Ethernet (untagged) + UDP headers, and the IP header of each version, around a datagram's
// payload: what the frame carries without its FCS, as XDP counts it.
constexpr std::uint64_t ethernet_udp = 14 + 8;
constexpr std::uint64_t ipv4_header = 20;
constexpr std::uint64_t ipv6_header = 40;

}  // namespace

frame_count_service::frame_count_service(const std::string& local, const std::string& client,
                                         std::uint16_t data_port,
                                         const iperf3::frame_count_request& request,
                                         const frame_count_attach& xdp)
    : socket_(traffic::socket_address::parse(local, data_port),
              traffic::socket_address::parse(client, 0)),
      ipv6_(local.find(':') != std::string::npos) {
  if (!request.xdp) {
    why_ = "the client asked for the socket's count";
  } else if (!xdp) {
    why_ = "this server does not count in XDP (hilperf-peer does, unless started with --no-xdp)";
  } else {
    try {
      xdp_ = xdp(local, socket_.udp_port());
      why_ = xdp_->why_not_native();
    } catch (const std::system_error& e) {
      why_ = e.what();
    }
  }
  socket_.start();
}

iperf3::frame_count_accept frame_count_service::accept() const {
  iperf3::frame_count_accept a;
  a.udp_port = socket_.udp_port();
  a.method = xdp_ ? iperf3::count_method::xdp : iperf3::count_method::socket;
  a.attach_mode = xdp_ ? xdp_->attach_mode() : "";
  a.why = why_;
  return a;
}

void frame_count_service::finish() noexcept { socket_.stop(); }

iperf3::frame_count_result frame_count_service::result() {
  iperf3::frame_count_result r;
  if (xdp_) {
    const auto t = xdp_->read();
    r.method = iperf3::count_method::xdp;
    r.attach_mode = xdp_->attach_mode();
    r.frames = t.frames;
    r.bytes = t.bytes;
    r.other_frames = t.other_frames;
    r.rx_packets_delta = t.rx_packets_delta;
    return r;
  }
  r.method = iperf3::count_method::socket;
  r.frames = socket_.datagrams();
  r.bytes =
      socket_.payload_bytes() + r.frames * (ethernet_udp + (ipv6_ ? ipv6_header : ipv4_header));
  r.other_frames = socket_.turned_away();
  return r;
}

}  // namespace hil::session
