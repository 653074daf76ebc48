// Test traffic for the XDP tests: prebuilt Ethernet/IPv4/UDP frames sent from the pair's sending
// namespace through an AF_PACKET socket on tx0 (the test's own few lines, not a sender of the
// suite's), in sendmmsg batches, optionally paced by batch against the monotonic clock.
#pragma once

#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "hil/sys/error.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/unique_fd.hpp"
#include "hil/tests/netns/xdp_pair.hpp"
#include "hil/xdp/xdp_attach.hpp"

// In a test's SetUp: skips when this build has no XDP programs (clang, libbpf or libxdp missing
// at build time: xdp_support() names which), fails when the programs are there but cannot be used.
#define HIL_REQUIRE_XDP()                                                        \
  do {                                                                           \
    const auto xdp = hil::xdp::xdp_support();                                    \
    if (!xdp.available && xdp.reason.find("built without") != std::string::npos) \
      GTEST_SKIP() << xdp.reason;                                                \
    ASSERT_TRUE(xdp.available) << xdp.reason;                                    \
  } while (false)

namespace hil::test {

using frame_bytes = std::vector<unsigned char>;

// The MAC address of ifname in this namespace's sysfs.
inline std::array<unsigned char, 6> mac_of(const std::string& ifname) {
  std::ifstream in("/sys/class/net/" + ifname + "/address");
  std::string text;
  in >> text;
  std::array<unsigned char, 6> mac{};
  unsigned v[6] = {};
  if (std::sscanf(text.c_str(), "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) !=
      6) {
    throw std::runtime_error("no MAC address for " + ifname);
  }
  for (int i = 0; i < 6; ++i) mac[i] = static_cast<unsigned char>(v[i]);
  return mac;
}

// A frame of size bytes counted with its FCS (so size − 4 on the socket), 198.18.1.1:40000 →
// 198.18.1.2:dst_port, to dst_mac.
inline frame_bytes udp_frame(const std::array<unsigned char, 6>& dst_mac, std::uint16_t dst_port,
                             std::size_t size) {
  frame_bytes f(size - 4, 0);
  const auto put16 = [&](std::size_t at, std::uint16_t v) {
    f[at] = static_cast<unsigned char>(v >> 8);
    f[at + 1] = static_cast<unsigned char>(v & 0xff);
  };
  std::copy(dst_mac.begin(), dst_mac.end(), f.begin());
  const std::array<unsigned char, 6> src{0x02, 0, 0, 0, 0, 0x01};
  std::copy(src.begin(), src.end(), f.begin() + 6);
  put16(12, 0x0800);
  const std::size_t ip = 14;
  const auto ip_len = static_cast<std::uint16_t>(f.size() - ip);
  f[ip] = 0x45;
  put16(ip + 2, ip_len);
  put16(ip + 6, 0x4000);  // DF
  f[ip + 8] = 64;
  f[ip + 9] = 17;  // UDP
  const std::array<unsigned char, 8> addrs{198, 18, 1, 1, 198, 18, 1, 2};
  std::copy(addrs.begin(), addrs.end(), f.begin() + ip + 12);
  std::uint32_t sum = 0;
  for (std::size_t i = ip; i < ip + 20; i += 2) sum += (f[i] << 8) | f[i + 1];
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  put16(ip + 10, static_cast<std::uint16_t>(~sum));
  const std::size_t udp = ip + 20;
  put16(udp, 40000);
  put16(udp + 2, dst_port);
  put16(udp + 4, static_cast<std::uint16_t>(ip_len - 20));  // checksum 0: none (IPv4)
  return f;
}

struct send_totals {
  std::uint64_t accepted = 0;  // frames the socket took: tx0 handed them to rx0
  std::uint64_t refused = 0;   // ENOBUFS: the veth's ring toward rx0 was full, frame dropped there
};

// How raw_sender::send offers its frames.
struct pacing {
  double fps = 0;  // 0: as fast as the socket takes them; else batch k leaves at k·batch/fps
  std::size_t batch = 32;  // frames per sendmmsg
  bool resend = false;     // a frame the veth refused (ENOBUFS) is sent again, not counted refused
  bool catch_up = true;    // a late sender sends the batches it missed back to back
};

// An AF_PACKET socket on the pair's tx0, opened in its namespace.
class raw_sender {
 public:
  raw_sender() {
    sys::with_socket_namespace(xdp_pair().tx_netns, [this] {
      fd_ = sys::unique_fd(::socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0));
      if (!fd_) sys::throw_last_errno("AF_PACKET socket");
      sockaddr_ll at{};
      at.sll_family = AF_PACKET;
      at.sll_ifindex = static_cast<int>(::if_nametoindex(xdp_pair().tx_if.c_str()));
      if (::bind(fd_.get(), reinterpret_cast<const sockaddr*>(&at), sizeof(at)) != 0) {
        sys::throw_last_errno("binding AF_PACKET to tx0");
      }
    });
  }

  // Sends count frames, frames[i % frames.size()] the i-th, in sendmmsg batches as p says.
  send_totals send(const std::vector<frame_bytes>& frames, std::uint64_t count,
                   const pacing& p = {}) {
    send_totals t;
    std::vector<iovec> iov(p.batch);
    std::vector<mmsghdr> msgs(p.batch);
    using clock = std::chrono::steady_clock;
    const auto interval = std::chrono::duration_cast<clock::duration>(
        std::chrono::duration<double>(p.fps > 0 ? static_cast<double>(p.batch) / p.fps : 0));
    auto due = clock::now();
    std::uint64_t next = 0;  // the next frame's index
    while (next < count) {
      if (p.fps > 0) {
        auto now = clock::now();
        while (now < due) now = clock::now();
        // Late by more than a batch: start afresh from now rather than send the missed batches
        // back to back.
        if (!p.catch_up && now - due > interval) due = now;
        due += interval;
      }
      const std::size_t n = std::min<std::uint64_t>(p.batch, count - next);
      for (std::size_t i = 0; i < n; ++i) {
        const auto& f = frames[(next + i) % frames.size()];
        iov[i] = {const_cast<unsigned char*>(f.data()), f.size()};
        msgs[i] = {};
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
      }
      const int sent = ::sendmmsg(fd_.get(), msgs.data(), static_cast<unsigned>(n), 0);
      if (sent > 0) {
        t.accepted += static_cast<std::uint64_t>(sent);
        next += static_cast<std::uint64_t>(sent);
      } else if (errno == ENOBUFS) {
        if (p.resend) {
          std::this_thread::sleep_for(std::chrono::microseconds(100));
        } else {
          ++t.refused;
          ++next;
        }
      } else if (errno != EINTR) {
        sys::throw_last_errno("sendmmsg on tx0");
      }
    }
    return t;
  }

 private:
  sys::unique_fd fd_;
};

}  // namespace hil::test
