// The hilperf extension's frame count (version 3, docs/hilperf-extension.md §11): a client asks
// hilperf-peer to count the UDP datagrams of a trial sent to a port the peer announces, below the
// socket layer where it can (an XDP program on the interface that holds the control connection's
// address: per-CPU counters, then drop) and on a UDP socket otherwise, and gets the counts back
// over the control connection as exact integers. Pure functions over JSON text; the state
// machines are hil/session/frame_count_client.cpp and iperf3_server.cpp.
//
//   client                                                      hilperf-peer
//     | --- params + "hilperf":{"version":3,"workload":"FRAME_COUNT", |
//     |      "duration_ms":4000,"count":"xdp"} ------------------------> |  UDP socket, XDP counter
//     | <--- 0x40 + {"version":3,"udp_port":U,"count":"xdp",            |  attached and zeroed
//     |              "attach_mode":"native","why":""}                   |  (or "socket" and why)
//     | ~~~ the trial's frames to U (UDP, any source port) ~~~~~~~~~~~~~ |  counted, dropped
//     | --- 0x04 TEST_END -------------------------------------------> |  read
//     | <--- 0x0D + {"count":"xdp","attach_mode":"native","frames":N,   |
//     |              "bytes":B,"other_frames":O,"rx_packets_delta":R}   |
//     | --- 0x10 IPERF_DONE, close ----------------------------------> |
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "hil/iperf3/extension.hpp"

namespace hil::iperf3 {

// The request's workload name for a frame count.
inline constexpr std::string_view frame_count_workload = "FRAME_COUNT";
// Longest count a client may ask (a guard, as for the workloads).
inline constexpr std::int64_t max_count_ms = 86'400'000;

// Where the peer counts.
enum class count_method { xdp, socket };
[[nodiscard]] std::string_view to_string(count_method m) noexcept;

// The parameter JSON of a frame count: encode_params() of a plain TCP test of the same duration
// (valid for a stock iperf3 server, which then declines as for a workload) plus "hilperf".
[[nodiscard]] std::string encode_frame_count_params(const frame_count_request& r,
                                                    std::string_view authtoken = {});
// The FRAME_COUNT fields of a request's "hilperf" object h; protocol_error naming a bad one.
[[nodiscard]] frame_count_request decode_frame_count_request(const nlohmann::json& h);

// The peer's accept of a frame count.
struct frame_count_accept {
  int version = extension_version;
  std::uint16_t udp_port = 0;  // where the frames go, at the address the control reached
  count_method method = count_method::socket;
  std::string attach_mode;  // xdp: "native" or "generic (skb)"; socket: empty
  // socket: why not XDP; xdp in generic mode: why not native; otherwise empty.
  std::string why;
};
[[nodiscard]] std::string encode_count_accept(const frame_count_accept& a);
// Throws protocol_error naming a missing or bad field.
[[nodiscard]] frame_count_accept decode_count_accept(std::string_view json);

// The counts, sent after TEST_END. Every count is an exact integer in 0..2^63−1.
struct frame_count_result {
  count_method method = count_method::socket;
  std::string attach_mode;   // as in the accept
  std::uint64_t frames = 0;  // of the flow (datagrams to udp_port)
  // xdp: as XDP sees them (Ethernet header to payload, no FCS); socket: the datagrams' payload
  // plus their UDP, IP and untagged Ethernet headers, the same figure for untagged frames.
  std::uint64_t bytes = 0;
  // xdp: frames of no flow on the interface in the same window (the control connection, ARP),
  // passed to the stack; socket: datagrams to udp_port from another host, not counted.
  std::uint64_t other_frames = 0;
  // xdp: the interface's own rx_packets growth over the window (frames + other_frames on a quiet
  // veth); socket: not measured.
  std::optional<std::uint64_t> rx_packets_delta;
};
[[nodiscard]] std::string encode_count_results(const frame_count_result& r);
// Throws protocol_error naming a missing or bad field.
[[nodiscard]] frame_count_result decode_count_results(std::string_view json);

}  // namespace hil::iperf3
