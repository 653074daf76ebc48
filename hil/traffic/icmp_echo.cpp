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

// Throws std::invalid_argument when o asks for more requests than there are sequence numbers or
// for a payload no IP datagram carries.
void check_options(const echo_options& o) {
  if (o.count < 0 || o.count > 65'535) {
    throw std::invalid_argument(
        fmt::format("{} ICMP echo requests: 0 to 65,535 (their sequence numbers)", o.count));
  }
  if (o.payload_bytes > max_payload) {
    throw std::invalid_argument(
        fmt::format("an ICMP echo payload of {} bytes: at most {}", o.payload_bytes, max_payload));
  }
}

struct destination {
  sockaddr_storage address{};
  socklen_t length = 0;
  bool v6 = false;
};

// host's address as sendto takes it; throws std::invalid_argument when host is no IP address.
destination destination_of(const std::string& host) {
  destination d;
  if (sockaddr_in a{}; ::inet_pton(AF_INET, host.c_str(), &a.sin_addr) == 1) {
    a.sin_family = AF_INET;
    std::memcpy(&d.address, &a, sizeof a);
    d.length = sizeof a;
  } else if (sockaddr_in6 a6{}; ::inet_pton(AF_INET6, host.c_str(), &a6.sin6_addr) == 1) {
    a6.sin6_family = AF_INET6;
    std::memcpy(&d.address, &a6, sizeof a6);
    d.length = sizeof a6;
    d.v6 = true;
  } else {
    throw std::invalid_argument("not an IPv4 or IPv6 address: " + host);
  }
  return d;
}

// A raw ICMP (v6: ICMPv6) socket bound to ifname that stamps each datagram with its arrival time;
// throws std::system_error when the socket cannot be had so.
sys::unique_fd open_echo_socket(bool v6, const std::string& ifname) {
  sys::unique_fd fd(v6 ? ::socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMPV6)
                       : ::socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP));
  if (!fd) sys::throw_last_errno("opening a raw ICMP socket (needs root or CAP_NET_RAW)");
  bind_to_device(fd.get(), ifname);
  const int on = 1;
  if (::setsockopt(fd.get(), SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) != 0) {
    sys::throw_last_errno("asking for receive timestamps (SO_TIMESTAMPNS) on the ICMP socket");
  }
  return fd;
}

// One icmp_echo exchange: its socket, the requests sent and the replies counted so far.
// Requests go out on schedule whatever the replies do; each reply counts when it comes within
// timeout of its request (by the kernel's clocks), late ones and duplicates do not.
class echo_exchange {
 public:
  // Opens the socket for host through ifname; throws as destination_of and open_echo_socket.
  echo_exchange(const std::string& host, const std::string& ifname, const echo_options& o)
      : host_(host),
        ifname_(ifname),
        o_(o),
        to_(destination_of(host)),
        fd_(open_echo_socket(to_.v6, ifname)),
        // A reply carries the request's payload after an IP header of at most 60 bytes.
        buf_(60 + sizeof(icmphdr) + std::max<std::size_t>(o.payload_bytes, 64)) {
    sent_.reserve(static_cast<std::size_t>(o.count));
  }

  // Sends the next request; one the network cannot take now (unreachable, down, queue full)
  // counts as sent and so as lost. Throws std::system_error on any other failure.
  void send_next() {
    const auto seq = static_cast<std::uint16_t>(r_.sent + 1);
    const echo_packet packet = echo_request(to_.v6, id_, seq, o_.payload_bytes);
    sent_.push_back({realtime_now(), false});
    if (::sendto(fd_.get(), packet.data(), packet.size(), 0,
                 reinterpret_cast<const sockaddr*>(&to_.address), to_.length) < 0) {
      if (errno != ENETUNREACH && errno != EHOSTUNREACH && errno != ENETDOWN && errno != ENOBUFS) {
        sys::throw_last_errno(fmt::format("sending an ICMP echo to {} through {}", host_, ifname_));
      }
    }
    ++r_.sent;
  }

  // Waits from now until wake for one datagram and counts it if it is the first reply to a
  // request sent, in time.
  void take_reply(clock::time_point now, clock::time_point wake) {
    const auto left = std::max(std::chrono::nanoseconds(wake - now), std::chrono::nanoseconds(0));
    const timespec wait{static_cast<time_t>(left.count() / 1'000'000'000),
                        static_cast<long>(left.count() % 1'000'000'000)};
    pollfd p{fd_.get(), POLLIN, 0};
    if (::ppoll(&p, 1, &wait, nullptr) <= 0) return;
    const auto got = read_reply(fd_.get(), to_.v6, id_, buf_);
    if (!got || got->seq == 0 || got->seq > sent_.size()) return;
    auto& req = sent_[got->seq - 1U];
    const auto rtt = std::max(got->arrived - req.sent_at, std::chrono::nanoseconds(0));
    if (req.answered || rtt > o_.timeout) return;
    req.answered = true;
    ++r_.received;
    r_.rtts.push_back(std::chrono::duration_cast<std::chrono::microseconds>(rtt));
  }

  // The counts and round trips so far.
  [[nodiscard]] const echo_result& result() const { return r_; }

 private:
  struct request {
    std::chrono::nanoseconds sent_at{};  // CLOCK_REALTIME
    bool answered = false;
  };

  const std::string& host_;
  const std::string& ifname_;
  const echo_options& o_;
  destination to_;
  sys::unique_fd fd_;
  std::uint16_t id_ = static_cast<std::uint16_t>(::getpid());
  std::vector<std::uint8_t> buf_;
  std::vector<request> sent_;
  echo_result r_;
};

}  // namespace

echo_result icmp_echo(const std::string& host, const std::string& ifname, const echo_options& o) {
  check_options(o);
  echo_exchange exchange(host, ifname, o);
  const echo_result& r = exchange.result();
  const auto first = clock::now();
  auto next_send = first;
  auto listen_until = first;
  for (;;) {
    const bool sending = r.sent < o.count && next_send < o.stop_sending_at;
    const auto now = clock::now();
    if (!sending && (now >= listen_until || r.received == r.sent)) break;
    if (sending && now >= next_send) {
      exchange.send_next();
      listen_until = clock::now() + o.timeout;
      next_send += o.interval;
      // A sender that fell behind skips the slots it missed rather than bursting to catch up.
      if (next_send <= now) next_send = now + o.interval;
      continue;
    }
    exchange.take_reply(now, sending ? next_send : listen_until);
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
