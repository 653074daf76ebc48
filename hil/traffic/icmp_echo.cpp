#include "hil/traffic/icmp_echo.hpp"

#include <arpa/inet.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/sys/unique_fd.hpp"
#include "hil/traffic/socket_options.hpp"

namespace hil::traffic {
namespace {

using clock = std::chrono::steady_clock;
constexpr std::size_t max_payload = 65'507;  // 65,535 less the IP and ICMP headers
using echo_packet = std::vector<std::uint8_t>;

// RFC 1071 Internet checksum.
std::uint16_t checksum(const std::uint8_t* data, std::size_t len) {
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i + 1 < len; i += 2)
    sum += static_cast<std::uint32_t>(data[i] << 8 | data[i + 1]);
  if (len % 2 != 0) sum += static_cast<std::uint32_t>(data[len - 1] << 8);
  while (sum >> 16 != 0) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum);
}

// The Header at `at`, copied out: a byte buffer guarantees no alignment for it, so a pointer cast
// would be undefined behaviour (and -Wcast-align rejects it on ARM).
template <typename Header>
Header read_header(const std::uint8_t* at) {
  Header h{};
  std::memcpy(&h, at, sizeof h);
  return h;
}

// Echo request seq of id: the ICMP header with its checksum, then payload bytes 0, 1, 2, ….
echo_packet echo_request(std::uint16_t id, std::uint16_t seq, std::size_t payload_len) {
  echo_packet packet(sizeof(icmphdr) + payload_len);
  icmphdr icmp{};
  icmp.type = ICMP_ECHO;
  icmp.un.echo.id = htons(id);
  icmp.un.echo.sequence = htons(seq);
  for (std::size_t b = 0; b < payload_len; ++b)
    packet[sizeof(icmphdr) + b] = static_cast<std::uint8_t>(b);
  // The checksum covers the header with its checksum field 0, then is written into it.
  std::memcpy(packet.data(), &icmp, sizeof icmp);
  icmp.checksum = htons(checksum(packet.data(), packet.size()));
  std::memcpy(packet.data(), &icmp, sizeof icmp);
  return packet;
}

// Waits for the echo reply with id/seq until deadline; true when it came.
bool await_reply(int fd, std::uint16_t id, std::uint16_t seq, clock::time_point deadline,
                 std::vector<std::uint8_t>& buf) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
    if (n < static_cast<ssize_t>(sizeof(iphdr) + 8)) continue;
    const auto ip = read_header<iphdr>(buf.data());
    const std::size_t off = ip.ihl * 4U;
    if (static_cast<std::size_t>(n) < off + sizeof(icmphdr)) continue;
    const auto icmp = read_header<icmphdr>(buf.data() + off);
    if (icmp.type == ICMP_ECHOREPLY && ntohs(icmp.un.echo.id) == id &&
        ntohs(icmp.un.echo.sequence) == seq) {
      return true;
    }
  }
}

}  // namespace

echo_result icmp_echo(const std::string& host, const std::string& ifname, const echo_options& o) {
  if (o.payload_bytes > max_payload) {
    throw std::invalid_argument(
        fmt::format("an ICMP echo payload of {} bytes: at most {}", o.payload_bytes, max_payload));
  }
  sockaddr_in to{};
  to.sin_family = AF_INET;
  if (::inet_pton(AF_INET, host.c_str(), &to.sin_addr) != 1) {
    throw std::invalid_argument("not an IPv4 address: " + host);
  }
  const sys::unique_fd fd(::socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP));
  if (!fd) sys::throw_last_errno("opening a raw ICMP socket (needs root or CAP_NET_RAW)");
  bind_to_device(fd.get(), ifname);
  const auto id = static_cast<std::uint16_t>(::getpid());
  // A reply carries the request's payload after an IP header of at most 60 bytes.
  std::vector<std::uint8_t> buf(60 + sizeof(icmphdr) + std::max<std::size_t>(o.payload_bytes, 64));
  echo_result r;
  for (int i = 0; i < o.count && clock::now() < o.stop_sending_at; ++i) {
    const auto seq = static_cast<std::uint16_t>(i + 1);
    const echo_packet packet = echo_request(id, seq, o.payload_bytes);
    const auto start = clock::now();
    if (::sendto(fd.get(), packet.data(), packet.size(), 0, reinterpret_cast<const sockaddr*>(&to),
                 sizeof(to)) < 0) {
      if (errno != ENETUNREACH && errno != EHOSTUNREACH && errno != ENETDOWN && errno != ENOBUFS) {
        sys::throw_last_errno(fmt::format("sending an ICMP echo to {} through {}", host, ifname));
      }
    }
    ++r.sent;
    if (await_reply(fd.get(), id, seq, start + o.timeout, buf)) {
      ++r.received;
      r.rtts.push_back(std::chrono::duration_cast<std::chrono::microseconds>(clock::now() - start));
    }
    if (i + 1 < o.count) std::this_thread::sleep_until(start + o.interval);
  }
  return r;
}

echo_result icmp_echo(const std::string& host, const std::string& ifname, int count,
                      std::chrono::milliseconds interval, std::chrono::milliseconds timeout) {
  echo_options o;
  o.count = count;
  o.interval = interval;
  o.timeout = timeout;
  return icmp_echo(host, ifname, o);
}

}  // namespace hil::traffic
