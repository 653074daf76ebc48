// The peer's side of a FRAME_COUNT request (docs/hilperf-extension.md §11), without the control
// connection: the UDP socket the frames go to, and a counter below it in XDP where the server has
// one and it attaches, else the socket's own count. iperf3_server.cpp drives it:
//
//   construct (socket bound, XDP attached and zeroed, or the reason it is not) → accept()
//   → the client sends → finish() after TEST_END → result()
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "hil/iperf3/frame_count.hpp"
#include "hil/session/frame_count_hook.hpp"
#include "hil/traffic/datagram_counter.hpp"

namespace hil::session {

class frame_count_service {
 public:
  // Opens the socket on local (data_port, or an ephemeral one when 0) serving client's host, then
  // attaches xdp to its port when the request asks for XDP and xdp is set; otherwise, or when
  // xdp throws, counts on the socket and keeps why. Throws std::system_error when the socket
  // cannot be bound.
  frame_count_service(const std::string& local, const std::string& client, std::uint16_t data_port,
                      const iperf3::frame_count_request& request, const frame_count_attach& xdp);

  // The accept message's fields.
  [[nodiscard]] iperf3::frame_count_accept accept() const;
  // Stops counting on the socket (XDP counts until read).
  void finish() noexcept;
  // The counts; throws std::system_error when the XDP program's maps cannot be read.
  [[nodiscard]] iperf3::frame_count_result result();
  // Datagrams from another host than the client's (socket counting only).
  [[nodiscard]] std::uint64_t turned_away() const noexcept { return socket_.turned_away(); }

 private:
  traffic::datagram_counter socket_;
  bool ipv6_ = false;
  std::unique_ptr<frame_count_hook> xdp_;  // null: counted on the socket
  std::string why_;                        // why not XDP (socket), or not native XDP
};

}  // namespace hil::session
