#include "hil/traffic/socket_options.hpp"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <sys/socket.h>

#include <array>
#include <cstring>

#include <fmt/format.h>

#include "hil/sys/error.hpp"

namespace hil::traffic {
namespace {

void set_int(int fd, int level, int name, int value, const char* what) {
  if (::setsockopt(fd, level, name, &value, sizeof(value)) != 0) {
    sys::throw_last_errno(fmt::format("setting {} to {}", what, value));
  }
}

}  // namespace

void apply_data_options(int fd, int family, const measure::test_spec& spec) {
  if (spec.window > 0) {
    const bool forced_send =
        spec.force_window &&
        ::setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &spec.window, sizeof(spec.window)) == 0;
    const bool forced_receive =
        spec.force_window &&
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &spec.window, sizeof(spec.window)) == 0;
    if (!forced_send) set_int(fd, SOL_SOCKET, SO_SNDBUF, spec.window, "SO_SNDBUF (-w)");
    if (!forced_receive) set_int(fd, SOL_SOCKET, SO_RCVBUF, spec.window, "SO_RCVBUF (-w)");
  }
  if (spec.proto == measure::protocol::tcp) {
    if (spec.mss > 0) set_int(fd, IPPROTO_TCP, TCP_MAXSEG, spec.mss, "TCP_MAXSEG (-M)");
    if (spec.nodelay) set_int(fd, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY (-N)");
  }
  if (spec.tos > 0) {
    if (family == AF_INET6) {
      set_int(fd, IPPROTO_IPV6, IPV6_TCLASS, spec.tos, "IPV6_TCLASS (-S)");
    } else {
      set_int(fd, IPPROTO_IP, IP_TOS, spec.tos, "IP_TOS (-S)");
    }
  }
  if (spec.proto == measure::protocol::udp && spec.dont_fragment) {
    // A datagram larger than the path MTU now fails with EMSGSIZE instead of being fragmented.
    if (family == AF_INET6) {
      set_int(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, IPV6_PMTUDISC_DO, "IPV6_MTU_DISCOVER");
      set_int(fd, IPPROTO_IPV6, IPV6_DONTFRAG, 1, "IPV6_DONTFRAG");
    } else {
      set_int(fd, IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DO, "IP_MTU_DISCOVER");
    }
  }
  if (!spec.bind_device.empty()) bind_to_device(fd, spec.bind_device);
}

void bind_to_device(int fd, const std::string& ifname) {
  if (::setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname.c_str(),
                   static_cast<socklen_t>(ifname.size())) != 0) {
    sys::throw_last_errno(
        fmt::format("binding a socket to interface {} (SO_BINDTODEVICE needs "
                    "CAP_NET_RAW and an existing interface)",
                    ifname));
  }
}

void set_io_timeouts(int fd, int milliseconds) {
  timeval tv{milliseconds / 1000, (milliseconds % 1000) * 1000};
  if (::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) != 0 ||
      ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0) {
    sys::throw_last_errno("setting socket timeouts");
  }
}

int tcp_mss(int fd) {
  int mss = 0;
  socklen_t len = sizeof(mss);
  return ::getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &len) == 0 ? mss : 0;
}

std::optional<tcp_info_sample> read_tcp_info(int fd) {
  tcp_info info{};
  socklen_t len = sizeof(info);
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) return std::nullopt;
  tcp_info_sample s;
  s.total_retrans = info.tcpi_total_retrans;
  s.snd_cwnd_bytes = static_cast<std::int64_t>(info.tcpi_snd_cwnd) * info.tcpi_snd_mss;
  s.rtt_us = info.tcpi_rtt;
  s.rttvar_us = info.tcpi_rttvar;
  s.pmtu = info.tcpi_pmtu;
  // tcpi_snd_wnd exists from Linux 6.2; older kernels return a shorter struct.
  if (len >= offsetof(tcp_info, tcpi_snd_wnd) + sizeof(info.tcpi_snd_wnd)) {
    s.snd_wnd_bytes = info.tcpi_snd_wnd;
  }
  return s;
}

int socket_buffer(int fd, bool send) {
  int value = 0;
  socklen_t len = sizeof(value);
  return ::getsockopt(fd, SOL_SOCKET, send ? SO_SNDBUF : SO_RCVBUF, &value, &len) == 0 ? value : 0;
}

std::string tcp_congestion(int fd) {
  std::array<char, 32> name{};
  socklen_t len = name.size();
  if (::getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name.data(), &len) != 0) return {};
  return std::string(name.data(), ::strnlen(name.data(), len));
}

}  // namespace hil::traffic
