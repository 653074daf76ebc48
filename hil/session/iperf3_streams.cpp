#include "hil/session/iperf3_streams.hpp"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <array>
#include <random>

#include <fmt/format.h>

#include "hil/iperf3/wire.hpp"
#include "hil/session/control_channel.hpp"
#include "hil/session/iperf3_framing.hpp"
#include "hil/traffic/socket_options.hpp"

namespace hil::session {
namespace {

using asio::use_awaitable;

// "198.18.0.10" and 40564 from a sockaddr.
std::pair<std::string, int> address_of(const sockaddr_storage& ss) {
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (ss.ss_family == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(ss);
    ::inet_ntop(AF_INET6, &a.sin6_addr, text.data(), text.size());
    return {text.data(), ntohs(a.sin6_port)};
  }
  const auto& a = reinterpret_cast<const sockaddr_in&>(ss);
  ::inet_ntop(AF_INET, &a.sin_addr, text.data(), text.size());
  return {text.data(), ntohs(a.sin_port)};
}

template <typename Socket, typename Endpoint>
void bind_local(Socket& sock, const Endpoint& to, const measure::test_spec& spec) {
  if (!spec.bind_device.empty()) traffic::bind_to_device(sock.native_handle(), spec.bind_device);
  if (!spec.bind_address.empty()) {
    sock.bind(Endpoint(asio::ip::make_address(spec.bind_address), 0));
  }
  (void)to;
}

}  // namespace

int stream_id(std::size_t index) { return index == 0 ? 1 : static_cast<int>(index) + 2; }

void open_for(asio::ip::tcp::socket& sock, const asio::ip::tcp::endpoint& to,
              const measure::test_spec& spec) {
  sock.open(to.protocol());
  bind_local(sock, to, spec);
}

asio::awaitable<sys::unique_fd> connect_tcp_stream(const asio::ip::tcp::endpoint& to,
                                                   const measure::test_spec& spec,
                                                   const std::string& cookie,
                                                   std::chrono::milliseconds timeout) {
  asio::ip::tcp::socket sock(co_await asio::this_coro::executor);
  open_for(sock, to, spec);
  traffic::apply_data_options(sock.native_handle(), to.protocol().family(), spec);
  co_await with_timeout(
      sock.async_connect(to, use_awaitable), timeout,
      fmt::format("data stream connect to {}:{}", to.address().to_string(), to.port()));
  co_await asio::async_write(sock, asio::buffer(cookie), use_awaitable);
  co_return sys::unique_fd(sock.release());
}

asio::awaitable<sys::unique_fd> connect_udp_stream(const asio::ip::tcp::endpoint& to,
                                                   const measure::test_spec& spec,
                                                   std::chrono::milliseconds timeout) {
  const asio::ip::udp::endpoint peer(to.address(), to.port());
  asio::ip::udp::socket sock(co_await asio::this_coro::executor);
  sock.open(peer.protocol());
  bind_local(sock, peer, spec);
  traffic::apply_data_options(sock.native_handle(), peer.protocol().family(), spec);
  enlarge_udp_receive_buffer(sock.native_handle(), 32 << 20);
  sock.connect(peer);
  co_await sock.async_send(asio::buffer(iperf3::udp_connect_msg), use_awaitable);
  std::vector<std::uint8_t> buf(65536);
  // -R: the server may start sending before its reply is read; skip up to two data datagrams.
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::size_t n = co_await with_timeout(
        sock.async_receive(asio::buffer(buf), use_awaitable), timeout,
        fmt::format("no UDP handshake reply from {}:{} — a firewall dropping UDP?",
                    peer.address().to_string(), peer.port()));
    if (iperf3::is_udp_connect_reply(std::span<const std::uint8_t>(buf.data(), n))) {
      co_return sys::unique_fd(sock.release());
    }
  }
  throw std::system_error(std::make_error_code(std::errc::protocol_error),
                          "the UDP handshake reply never came (got data instead)");
}

measure::stream_endpoint describe_stream(int fd, int id) {
  sockaddr_storage local{};
  sockaddr_storage remote{};
  socklen_t len = sizeof(local);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len);
  len = sizeof(remote);
  ::getpeername(fd, reinterpret_cast<sockaddr*>(&remote), &len);
  measure::stream_endpoint e;
  e.id = id;
  e.socket = fd;
  std::tie(e.local_host, e.local_port) = address_of(local);
  std::tie(e.remote_host, e.remote_port) = address_of(remote);
  return e;
}

traffic::flow_config flow_config_for(const iperf3::test_params& spec, int id,
                                     traffic::flow_role role, std::uint64_t payload_seed) {
  traffic::flow_config c;
  c.id = id;
  c.role = role;
  c.proto = spec.proto;
  c.block_len = spec.effective_block_len();
  c.bitrate_bps = role == traffic::flow_role::send ? spec.effective_bitrate() : 0;
  const auto streams = static_cast<std::uint64_t>(std::max(spec.parallel, 1));
  c.byte_limit = spec.bytes == 0 ? 0 : (spec.bytes + streams - 1) / streams;
  c.block_limit = spec.blocks == 0 ? 0 : (spec.blocks + streams - 1) / streams;
  if (spec.proto == measure::protocol::udp) c.datagrams = udp_datagrams(spec.udp_counters_64bit);
  c.payload_seed = payload_seed + static_cast<std::uint64_t>(id);
  return c;
}

std::uint64_t new_payload_seed() {
  std::random_device device;
  return (std::uint64_t{device()} << 32) | device();
}

void enlarge_udp_receive_buffer(int fd, int bytes) {
  if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)) != 0) {
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
  }
}

}  // namespace hil::session
