// The peer's side of a frame-path test: a packet socket on the peer's interface that sees every
// frame arriving there and checks the flow's sequence numbers (each at most once, none never
// sent), and a UDP socket bound to the flow's destination that receives the datagrams the kernel
// accepted (right checksums; it also keeps the peer from answering with ICMP). Both sockets live in
// the peer's namespace; one thread drains them. A packet socket that fell behind says so (drops):
// then its count is not exact and the test must fail, not guess.
#pragma once

#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "hil/frame/frame_builder.hpp"
#include "hil/link/link_control.hpp"
#include "hil/sys/error.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/unique_fd.hpp"

namespace hil::test {

class peer_tap {
 public:
  struct counts {
    std::uint64_t ours = 0;         // frames of the flow (its ports)
    std::uint64_t others = 0;       // every other frame arriving
    std::uint64_t duplicates = 0;   // a sequence number seen again
    std::uint32_t highest_seq = 0;  // the highest sequence number seen
    std::uint64_t drops = 0;        // frames the packet socket could not queue
    std::uint64_t delivered = 0;    // datagrams the UDP socket received
  };

  peer_tap(const std::string& ns, const std::string& ifname, const frame::frame_template& t,
           const std::string& dst_ip, std::uint16_t dst_port)
      : frame_(t), ifname_(ifname) {
    sys::with_socket_namespace(ns, [&] { open(ifname, dst_ip, dst_port); });
    reader_ = std::thread([this] { run(); });
  }

  ~peer_tap() {
    stop_ = true;
    reader_.join();
  }
  peer_tap(const peer_tap&) = delete;
  peer_tap& operator=(const peer_tap&) = delete;

  [[nodiscard]] counts tally() {
    const std::lock_guard lock(mutex_);
    return counts_;
  }

  // Polls until ours reaches want or timeout passes (then what was seen).
  [[nodiscard]] counts wait_for(std::uint64_t ours, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const counts c = tally();
      if ((c.ours >= ours && c.delivered >= ours) || std::chrono::steady_clock::now() > deadline) {
        // The packet socket's own loss counter, read (and reset) by the kernel on each call.
        tpacket_stats st{};
        socklen_t len = sizeof st;
        if (::getsockopt(packet_.get(), SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0) {
          const std::lock_guard lock(mutex_);
          counts_.drops += st.tp_drops;
          return counts_;
        }
        return c;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  // The peer interface's counters now.
  [[nodiscard]] link::link_counters interface_counters() { return link_->counters(ifname_); }

 private:
  void open(const std::string& ifname, const std::string& dst_ip, std::uint16_t dst_port) {
    link_.emplace();
    packet_ = sys::unique_fd(::socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL)));
    if (!packet_) sys::throw_last_errno("peer packet socket");
    const int big = 64 << 20;
    (void)::setsockopt(packet_.get(), SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big);
    sockaddr_ll ll{};
    ll.sll_family = AF_PACKET;
    ll.sll_protocol = htons(ETH_P_ALL);
    ll.sll_ifindex = static_cast<int>(::if_nametoindex(ifname.c_str()));
    if (::bind(packet_.get(), reinterpret_cast<sockaddr*>(&ll), sizeof ll) != 0) {
      sys::throw_last_errno("bind of the peer packet socket to " + ifname);
    }
    tpacket_stats st{};
    socklen_t len = sizeof st;
    (void)::getsockopt(packet_.get(), SOL_PACKET, PACKET_STATISTICS, &st, &len);  // reset
    const frame::ip_address a = frame::parse_ip(dst_ip);
    udp_ =
        sys::unique_fd(::socket(a.version == 6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    (void)::setsockopt(udp_.get(), SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big);
    sockaddr_storage to{};
    socklen_t to_len = sizeof(sockaddr_in);
    if (a.version == 6) {
      auto* s6 = reinterpret_cast<sockaddr_in6*>(&to);
      s6->sin6_family = AF_INET6;
      s6->sin6_port = htons(dst_port);
      std::memcpy(&s6->sin6_addr, a.bytes.data(), 16);
      to_len = sizeof(sockaddr_in6);
    } else {
      auto* s4 = reinterpret_cast<sockaddr_in*>(&to);
      s4->sin_family = AF_INET;
      s4->sin_port = htons(dst_port);
      std::memcpy(&s4->sin_addr, a.bytes.data(), 4);
    }
    if (::bind(udp_.get(), reinterpret_cast<sockaddr*>(&to), to_len) != 0) {
      sys::throw_last_errno("bind of the peer UDP socket to " + dst_ip);
    }
  }

  void run() {
    std::vector<std::byte> buf(65536);
    std::array<pollfd, 2> p{{{packet_.get(), POLLIN, 0}, {udp_.get(), POLLIN, 0}}};
    while (!stop_) {
      if (::poll(p.data(), p.size(), 20) <= 0) continue;
      for (;;) {
        sockaddr_ll from{};
        socklen_t len = sizeof from;
        const ssize_t n = ::recvfrom(packet_.get(), buf.data(), buf.size(), MSG_DONTWAIT,
                                     reinterpret_cast<sockaddr*>(&from), &len);
        if (n < 0) break;
        if (from.sll_pkttype == PACKET_OUTGOING) continue;
        count({buf.data(), static_cast<std::size_t>(n)});
      }
      std::uint64_t got = 0;
      while (::recv(udp_.get(), buf.data(), buf.size(), MSG_DONTWAIT) >= 0) ++got;
      const std::lock_guard lock(mutex_);
      counts_.delivered += got;
    }
  }

  // Ours when the EtherType and the UDP ports are the flow's: the socket path's kernel writes
  // its own IP header (identification), so only these are compared.
  void count(std::span<const std::byte> f) {
    const auto& t = frame_.bytes();
    const std::size_t ports = frame_.payload_offset() - 8;
    const bool ours = f.size() >= frame_.payload_offset() + frame::stamp_bytes &&
                      std::memcmp(f.data() + 12, t.data() + 12, 2) == 0 &&
                      std::memcmp(f.data() + ports, t.data() + ports, 4) == 0;
    const std::lock_guard lock(mutex_);
    if (!ours) {
      ++counts_.others;
      return;
    }
    ++counts_.ours;
    const std::uint32_t seq = frame_.sequence_of(f);
    counts_.highest_seq = std::max(counts_.highest_seq, seq);
    if (seq >= (1U << 24)) return;  // highest_seq tells: no test sends that many
    if (seq >= seen_.size()) seen_.resize(std::max<std::size_t>(seq + 1, seen_.size() * 2));
    if (seen_[seq]) ++counts_.duplicates;
    seen_[seq] = true;
  }

  frame::frame_template frame_;
  std::string ifname_;
  std::optional<link::link_control> link_;  // in the peer's namespace
  sys::unique_fd packet_;
  sys::unique_fd udp_;
  std::mutex mutex_;
  counts counts_;
  std::vector<bool> seen_;
  std::atomic<bool> stop_{false};
  std::thread reader_;
};

}  // namespace hil::test
