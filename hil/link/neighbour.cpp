#include "hil/link/neighbour.hpp"

#include <arpa/inet.h>
#include <linux/neighbour.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netlink/addr.h>
#include <netlink/cache.h>
#include <netlink/route/link.h>
#include <netlink/route/neighbour.h>
#include <sys/socket.h>

#include <cstring>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "hil/link/detail/nl_handles.hpp"
#include "hil/link/nl_error.hpp"
#include "hil/sys/unique_fd.hpp"

namespace hil::link {
namespace {

using detail::cache_deleter;

struct owned_addr_deleter {
  void operator()(nl_addr* a) const noexcept { nl_addr_put(a); }
};
struct link_put {
  void operator()(rtnl_link* l) const noexcept { rtnl_link_put(l); }
};

constexpr int usable_states =
    NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE | NUD_PERMANENT | NUD_NOARP;

bool copy_mac(nl_addr* lladdr, mac_address& out) {
  if (lladdr == nullptr || nl_addr_get_len(lladdr) != out.size()) return false;
  std::memcpy(out.data(), nl_addr_get_binary_addr(lladdr), out.size());
  return true;
}

// The usable entry for dst on index, if the table has one now.
bool lookup(link_control& link, int index, nl_addr* dst, mac_address& out) {
  nl_cache* raw = nullptr;
  if (const int rc = rtnl_neigh_alloc_cache(link.socket(), &raw); rc < 0) {
    throw_nl(rc, "cannot read the neighbour table");
  }
  const std::unique_ptr<nl_cache, cache_deleter> cache(raw);
  // Compared by bytes: nl_addr_cmp also compares prefix lengths, which parsed and dumped
  // addresses need not share.
  const auto* want = static_cast<const std::uint8_t*>(nl_addr_get_binary_addr(dst));
  const unsigned want_len = nl_addr_get_len(dst);
  for (nl_object* o = nl_cache_get_first(cache.get()); o != nullptr; o = nl_cache_get_next(o)) {
    auto* n = reinterpret_cast<rtnl_neigh*>(o);
    nl_addr* a = rtnl_neigh_get_dst(n);
    if (rtnl_neigh_get_ifindex(n) != index || a == nullptr ||
        nl_addr_get_family(a) != nl_addr_get_family(dst) || nl_addr_get_len(a) != want_len ||
        std::memcmp(nl_addr_get_binary_addr(a), want, want_len) != 0) {
      continue;
    }
    if ((rtnl_neigh_get_state(n) & usable_states) != 0 && copy_mac(rtnl_neigh_get_lladdr(n), out)) {
      return true;
    }
  }
  return false;
}

// One datagram to ip's discard port from a socket bound to ifname: the kernel queues it while it
// resolves the neighbour (ARP request or neighbour solicitation). Best effort: the poll after it
// says whether the neighbour answered.
void provoke_resolution(const std::string& ifname, const std::string& ip) {
  sockaddr_storage to{};
  socklen_t len = 0;
  int family = AF_INET;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&to);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&to);
  if (::inet_pton(AF_INET, ip.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(9);
    len = sizeof(sockaddr_in);
  } else if (::inet_pton(AF_INET6, ip.c_str(), &v6->sin6_addr) == 1) {
    family = AF_INET6;
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(9);
    v6->sin6_scope_id = ::if_nametoindex(ifname.c_str());
    len = sizeof(sockaddr_in6);
  } else {
    return;
  }
  const sys::unique_fd fd(::socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd) return;
  (void)::setsockopt(fd.get(), SOL_SOCKET, SO_BINDTODEVICE, ifname.c_str(),
                     static_cast<socklen_t>(ifname.size()));
  (void)::sendto(fd.get(), nullptr, 0, MSG_DONTWAIT, reinterpret_cast<sockaddr*>(&to), len);
}

}  // namespace

std::string mac_text(const mac_address& mac) {
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", mac[0], mac[1], mac[2], mac[3],
                     mac[4], mac[5]);
}

mac_address interface_mac(link_control& link, const std::string& ifname) {
  (void)link.info(ifname);  // ENODEV listing what exists
  rtnl_link* raw = nullptr;
  if (const int rc = rtnl_link_get_kernel(link.socket(), 0, ifname.c_str(), &raw); rc < 0) {
    throw_nl(rc, "cannot read the link " + ifname);
  }
  const std::unique_ptr<rtnl_link, link_put> l(raw);
  mac_address mac{};
  if (!copy_mac(rtnl_link_get_addr(l.get()), mac)) {
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            ifname + " has no Ethernet (6-byte) hardware address");
  }
  return mac;
}

mac_address neighbour_mac(link_control& link, const std::string& ifname, const std::string& ip,
                          std::chrono::milliseconds timeout) {
  const int index = link.info(ifname).index;
  nl_addr* parsed = nullptr;
  if (const int rc = nl_addr_parse(ip.c_str(), AF_UNSPEC, &parsed); rc < 0) {
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            "'" + ip + "' is not an IPv4 or IPv6 address");
  }
  const std::unique_ptr<nl_addr, owned_addr_deleter> dst(parsed);
  mac_address mac{};
  if (lookup(link, index, dst.get(), mac)) return mac;
  provoke_resolution(ifname, ip);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (lookup(link, index, dst.get(), mac)) return mac;
  }
  throw std::system_error(
      std::make_error_code(std::errc::host_unreachable),
      fmt::format("{} did not resolve {}'s MAC within {} ms (no ARP/neighbour answer: is the "
                  "peer up and on-link, its address right?)",
                  ifname, ip, timeout.count()));
}

}  // namespace hil::link
