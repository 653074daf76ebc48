#include "hil/traffic/icmp_echo.hpp"

#include <arpa/inet.h>
#include <netinet/icmp6.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <optional>
#include <stdexcept>
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

// Echo request seq of id: the ICMP header with its checksum, then payload bytes 0, 1, 2, …. For
// ICMPv6 the kernel writes the checksum (it covers the IPv6 pseudo-header: RFC 3542 §3.1).
echo_packet echo_request(bool v6, std::uint16_t id, std::uint16_t seq, std::size_t payload_len) {
  echo_packet packet(sizeof(icmphdr) + payload_len);
  icmphdr icmp{};  // ICMPv6's echo header has the same layout: type, code, checksum, id, seq
  icmp.type = v6 ? ICMP6_ECHO_REQUEST : ICMP_ECHO;
  icmp.un.echo.id = htons(id);
  icmp.un.echo.sequence = htons(seq);
  for (std::size_t b = 0; b < payload_len; ++b)
    packet[sizeof(icmphdr) + b] = static_cast<std::uint8_t>(b);
  // The checksum covers the header with its checksum field 0, then is written into it.
  std::memcpy(packet.data(), &icmp, sizeof icmp);
  if (v6) return packet;
  icmp.checksum = htons(checksum(packet.data(), packet.size()));
  std::memcpy(packet.data(), &icmp, sizeof icmp);
  return packet;
}

// The kernel's receive time of the message msg carried (SO_TIMESTAMPNS, CLOCK_REALTIME), if any.
std::optional<std::chrono::nanoseconds> receive_stamp(msghdr& msg) {
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
      timespec ts{};
      std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
      return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
    }
  }
  return std::nullopt;
}

std::chrono::nanoseconds realtime_now() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

struct reply {
  std::uint16_t seq = 0;
  std::chrono::nanoseconds arrived{};  // CLOCK_REALTIME, as the send times are taken
};

// Reads one datagram from fd (which poll said is readable): an echo reply to id, with its kernel
// receive time, so the time this thread took to wake is not counted; nullopt for anything else.
// A raw IPv4 socket hands over the IP header too, a raw ICMPv6 socket only the ICMPv6 message.
std::optional<reply> read_reply(int fd, bool v6, std::uint16_t id, std::vector<std::uint8_t>& buf) {
  iovec iov{buf.data(), buf.size()};
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(timespec)) + 64> control{};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.data();
  msg.msg_controllen = control.size();
  const ssize_t n = ::recvmsg(fd, &msg, MSG_DONTWAIT);
  if (v6) {
    if (n < static_cast<ssize_t>(sizeof(icmp6_hdr))) return std::nullopt;
    const auto icmp = read_header<icmp6_hdr>(buf.data());
    if (icmp.icmp6_type != ICMP6_ECHO_REPLY || ntohs(icmp.icmp6_id) != id) return std::nullopt;
    return reply{ntohs(icmp.icmp6_seq), receive_stamp(msg).value_or(realtime_now())};
  }
  if (n < static_cast<ssize_t>(sizeof(iphdr) + 8)) return std::nullopt;
  const auto ip = read_header<iphdr>(buf.data());
  const std::size_t off = ip.ihl * 4U;
  if (static_cast<std::size_t>(n) < off + sizeof(icmphdr)) return std::nullopt;
  const auto icmp = read_header<icmphdr>(buf.data() + off);
  if (icmp.type != ICMP_ECHOREPLY || ntohs(icmp.un.echo.id) != id) return std::nullopt;
  return reply{ntohs(icmp.un.echo.sequence), receive_stamp(msg).value_or(realtime_now())};
}

}  // namespace

echo_result icmp_echo(const std::string& host, const std::string& ifname, const echo_options& o) {
  if (o.count < 0 || o.count > 65'535) {
    throw std::invalid_argument(
        fmt::format("{} ICMP echo requests: 0 to 65,535 (their sequence numbers)", o.count));
  }
  if (o.payload_bytes > max_payload) {
    throw std::invalid_argument(
        fmt::format("an ICMP echo payload of {} bytes: at most {}", o.payload_bytes, max_payload));
  }
  sockaddr_storage to{};
  socklen_t to_len = 0;
  bool v6 = false;
  if (sockaddr_in a{}; ::inet_pton(AF_INET, host.c_str(), &a.sin_addr) == 1) {
    a.sin_family = AF_INET;
    std::memcpy(&to, &a, sizeof a);
    to_len = sizeof a;
  } else if (sockaddr_in6 a6{}; ::inet_pton(AF_INET6, host.c_str(), &a6.sin6_addr) == 1) {
    a6.sin6_family = AF_INET6;
    std::memcpy(&to, &a6, sizeof a6);
    to_len = sizeof a6;
    v6 = true;
  } else {
    throw std::invalid_argument("not an IPv4 or IPv6 address: " + host);
  }
  const sys::unique_fd fd(v6 ? ::socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMPV6)
                             : ::socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP));
  if (!fd) sys::throw_last_errno("opening a raw ICMP socket (needs root or CAP_NET_RAW)");
  bind_to_device(fd.get(), ifname);
  const int on = 1;
  if (::setsockopt(fd.get(), SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) != 0) {
    sys::throw_last_errno("asking for receive timestamps (SO_TIMESTAMPNS) on the ICMP socket");
  }
  const auto id = static_cast<std::uint16_t>(::getpid());
  // A reply carries the request's payload after an IP header of at most 60 bytes.
  std::vector<std::uint8_t> buf(60 + sizeof(icmphdr) + std::max<std::size_t>(o.payload_bytes, 64));
  // Requests go out on schedule whatever the replies do; each reply counts when it comes within
  // timeout of its request (by the kernel's clocks), late ones and duplicates do not.
  struct request {
    std::chrono::nanoseconds sent_at{};  // CLOCK_REALTIME
    bool answered = false;
  };
  std::vector<request> sent;
  sent.reserve(static_cast<std::size_t>(o.count));
  echo_result r;
  const auto first = clock::now();
  auto next_send = first;
  auto listen_until = first;
  for (;;) {
    const bool sending = r.sent < o.count && next_send < o.stop_sending_at;
    const auto now = clock::now();
    if (!sending && (now >= listen_until || r.received == r.sent)) break;
    if (sending && now >= next_send) {
      const auto seq = static_cast<std::uint16_t>(r.sent + 1);
      const echo_packet packet = echo_request(v6, id, seq, o.payload_bytes);
      sent.push_back({realtime_now(), false});
      if (::sendto(fd.get(), packet.data(), packet.size(), 0,
                   reinterpret_cast<const sockaddr*>(&to), to_len) < 0) {
        if (errno != ENETUNREACH && errno != EHOSTUNREACH && errno != ENETDOWN &&
            errno != ENOBUFS) {
          sys::throw_last_errno(fmt::format("sending an ICMP echo to {} through {}", host, ifname));
        }
      }
      ++r.sent;
      listen_until = clock::now() + o.timeout;
      next_send += o.interval;
      // A sender that fell behind skips the slots it missed rather than bursting to catch up.
      if (next_send <= now) next_send = now + o.interval;
      continue;
    }
    const auto wake = sending ? next_send : listen_until;
    const auto left = std::max(std::chrono::nanoseconds(wake - now), std::chrono::nanoseconds(0));
    const timespec wait{static_cast<time_t>(left.count() / 1'000'000'000),
                        static_cast<long>(left.count() % 1'000'000'000)};
    pollfd p{fd.get(), POLLIN, 0};
    if (::ppoll(&p, 1, &wait, nullptr) <= 0) continue;
    const auto got = read_reply(fd.get(), v6, id, buf);
    if (!got || got->seq == 0 || got->seq > sent.size()) continue;
    auto& req = sent[got->seq - 1U];
    const auto rtt = std::max(got->arrived - req.sent_at, std::chrono::nanoseconds(0));
    if (req.answered || rtt > o.timeout) continue;
    req.answered = true;
    ++r.received;
    r.rtts.push_back(std::chrono::duration_cast<std::chrono::microseconds>(rtt));
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
