// Data stream set-up shared by the client and the server: ids, sockets with the test's options,
// the TCP cookie and the UDP 9876/6789 handshake (docs/iperf3-protocol.md §5).
#pragma once

#include <asio.hpp>

#include <chrono>
#include <string>

#include "hil/iperf3/params.hpp"
#include "hil/measure/results.hpp"
#include "hil/sys/unique_fd.hpp"
#include "hil/traffic/flow.hpp"

namespace hil::session {

// iperf3's stream ids: 1, 3, 4, 5, … (2 is skipped, kept for compatibility) for index 0, 1, 2, …
int stream_id(std::size_t index);

// Opens sock for a connection to `to`, bound to spec's device (-I) and address (-B) if given.
void open_for(asio::ip::tcp::socket& sock, const asio::ip::tcp::endpoint& to,
              const measure::test_spec& spec);

// Client: connects a TCP data stream (options applied before connect) and sends the cookie.
asio::awaitable<sys::unique_fd> connect_tcp_stream(const asio::ip::tcp::endpoint& to,
                                                   const measure::test_spec& spec,
                                                   const std::string& cookie,
                                                   std::chrono::milliseconds timeout);

// Client: connects a UDP data stream and completes the hello/reply handshake; in -R up to two data
// datagrams may arrive before the reply.
asio::awaitable<sys::unique_fd> connect_udp_stream(const asio::ip::tcp::endpoint& to,
                                                   const measure::test_spec& spec,
                                                   std::chrono::milliseconds timeout);

// The local and remote address of a connected data socket.
measure::stream_endpoint describe_stream(int fd, int id);

// The flow a stream runs: its role, block length, rate (senders), -n/-k share, and its payload
// from payload_seed + id (the test's seed, test_result::payload_seed).
traffic::flow_config flow_config_for(const iperf3::test_params& spec, int id,
                                     traffic::flow_role role, std::uint64_t payload_seed);

// A fresh seed for a test's payloads, from std::random_device.
[[nodiscard]] std::uint64_t new_payload_seed();

// A larger receive buffer for UDP receivers, so a burst is not dropped in the socket (root may
// exceed net.core.rmem_max with SO_RCVBUFFORCE). Best effort.
void enlarge_udp_receive_buffer(int fd, int bytes);

}  // namespace hil::session
