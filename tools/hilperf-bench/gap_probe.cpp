#include "gap_probe.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "hil/sys/unique_fd.hpp"

namespace hil::bench_tool {

gap_probe::gap_probe(std::string netns, std::string ifname, std::uint16_t dst_port,
                     std::size_t payload_len)
    : netns_(std::move(netns)),
      ifname_(std::move(ifname)),
      port_(dst_port),
      payload_len_(payload_len) {
  arrivals_ns_.reserve(1 << 20);
  thread_ = std::thread([this] { run(); });
}

gap_probe::~gap_probe() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void gap_probe::run() {
  // setns() moves only this thread: the benchmark itself stays where it is.
  const sys::unique_fd ns(::open(("/run/netns/" + netns_).c_str(), O_RDONLY | O_CLOEXEC));
  if (!ns || ::setns(ns.get(), CLONE_NEWNET) != 0) {
    error_ = "cannot enter " + netns_ + ": " + std::strerror(errno);
    return;
  }
  const sys::unique_fd fd(::socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, htons(ETH_P_IP)));
  const int on = 1;
  timeval tv{0, 100'000};
  sockaddr_ll at{};
  at.sll_family = AF_PACKET;
  at.sll_protocol = htons(ETH_P_IP);
  at.sll_ifindex = static_cast<int>(::if_nametoindex(ifname_.c_str()));
  if (!fd || ::setsockopt(fd.get(), SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on)) != 0 ||
      ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0 ||
      ::bind(fd.get(), reinterpret_cast<const sockaddr*>(&at), sizeof(at)) != 0) {
    error_ = std::string("cannot open the packet socket: ") + std::strerror(errno);
    return;
  }
  std::array<std::uint8_t, 64> head{};  // IP + UDP headers are all we read
  std::array<char, CMSG_SPACE(sizeof(timespec))> control{};
  while (!stop_) {
    iovec iov{head.data(), head.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    if (::recvmsg(fd.get(), &msg, MSG_TRUNC) < 20) continue;
    // Copied out, not cast: the buffer has no alignment for the headers (32-bit ARM traps).
    iphdr ip{};
    std::memcpy(&ip, head.data(), sizeof(ip));
    const std::size_t udp_at = ip.ihl * 4U;
    if (ip.protocol != IPPROTO_UDP || udp_at + sizeof(udphdr) > head.size()) continue;
    udphdr udp{};
    std::memcpy(&udp, head.data() + udp_at, sizeof(udp));
    if (ntohs(udp.dest) != port_ || ntohs(udp.len) != payload_len_ + sizeof(udphdr)) continue;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPNS) {
        timespec ts{};
        std::memcpy(&ts, CMSG_DATA(c), sizeof(ts));
        arrivals_ns_.push_back(static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec);
      }
    }
  }
}

std::vector<std::chrono::nanoseconds> gap_probe::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (!error_.empty()) throw std::runtime_error("gap probe: " + error_);
  std::vector<std::chrono::nanoseconds> gaps;
  for (std::size_t i = 1; i < arrivals_ns_.size(); ++i) {
    gaps.emplace_back(arrivals_ns_[i] - arrivals_ns_[i - 1]);
  }
  return gaps;
}

double deviation_percentile_us(std::vector<std::chrono::nanoseconds> gaps,
                               std::chrono::nanoseconds ideal, double p) {
  if (gaps.empty()) return 0;
  std::vector<double> dev;
  dev.reserve(gaps.size());
  for (const auto g : gaps) dev.push_back(std::abs(static_cast<double>((g - ideal).count())) / 1e3);
  const auto rank = static_cast<std::size_t>(p / 100.0 * static_cast<double>(dev.size() - 1));
  std::nth_element(dev.begin(), dev.begin() + static_cast<std::ptrdiff_t>(rank), dev.end());
  return dev[rank];
}

}  // namespace hil::bench_tool
