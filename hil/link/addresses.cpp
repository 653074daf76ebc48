#include "hil/link/addresses.hpp"

#include <linux/if_addr.h>
#include <linux/rtnetlink.h>
#include <netlink/addr.h>
#include <netlink/cache.h>
#include <netlink/route/addr.h>

#include <algorithm>
#include <array>
#include <memory>
#include <thread>

#include "hil/link/detail/nl_handles.hpp"
#include "hil/link/nl_error.hpp"

namespace hil::link {
namespace {

using detail::cache_deleter;

struct addr_deleter {
  void operator()(rtnl_addr* a) const noexcept { rtnl_addr_put(a); }
};
struct nl_addr_deleter {
  void operator()(nl_addr* a) const noexcept { nl_addr_put(a); }
};

}  // namespace

std::vector<std::string> ipv6_addresses(link_control& link, const std::string& ifname) {
  const int index = link.info(ifname).index;
  nl_cache* raw = nullptr;
  if (const int rc = rtnl_addr_alloc_cache(link.socket(), &raw); rc < 0) {
    throw_nl(rc, "cannot list the addresses of " + ifname);
  }
  const std::unique_ptr<nl_cache, cache_deleter> cache(raw);
  std::vector<std::string> out;
  for (nl_object* o = nl_cache_get_first(cache.get()); o != nullptr; o = nl_cache_get_next(o)) {
    auto* a = reinterpret_cast<rtnl_addr*>(o);
    if (rtnl_addr_get_ifindex(a) != index || rtnl_addr_get_family(a) != AF_INET6 ||
        rtnl_addr_get_scope(a) != RT_SCOPE_UNIVERSE) {
      continue;
    }
    std::array<char, 128> text{};
    out.emplace_back(nl_addr2str(rtnl_addr_get_local(a), text.data(), text.size()));
  }
  return out;
}

void restore_ipv6_addresses(link_control& link, const std::string& ifname,
                            const std::vector<std::string>& cidrs) {
  const auto present = ipv6_addresses(link, ifname);
  const int index = link.info(ifname).index;
  for (const auto& cidr : cidrs) {
    if (std::ranges::find(present, cidr) != present.end()) continue;
    nl_addr* parsed = nullptr;
    if (const int rc = nl_addr_parse(cidr.c_str(), AF_INET6, &parsed); rc < 0) {
      throw_nl(rc, "cannot parse IPv6 address " + cidr);
    }
    const std::unique_ptr<nl_addr, nl_addr_deleter> local(parsed);
    const std::unique_ptr<rtnl_addr, addr_deleter> addr(rtnl_addr_alloc());
    if (!addr) throw std::bad_alloc();
    rtnl_addr_set_ifindex(addr.get(), index);
    rtnl_addr_set_local(addr.get(), local.get());
    rtnl_addr_set_flags(addr.get(), IFA_F_NODAD);
    if (const int rc = rtnl_addr_add(link.socket(), addr.get(), 0); rc < 0) {
      throw_nl(rc, "cannot restore IPv6 address " + cidr + " on " + ifname);
    }
  }
}

bool wait_ipv6_settled(link_control& link, const std::string& ifname,
                       std::chrono::milliseconds timeout) {
  const int index = link.info(ifname).index;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    nl_cache* raw = nullptr;
    if (const int rc = rtnl_addr_alloc_cache(link.socket(), &raw); rc < 0) {
      throw_nl(rc, "cannot list the addresses of " + ifname);
    }
    const std::unique_ptr<nl_cache, cache_deleter> cache(raw);
    bool tentative = false;
    for (nl_object* o = nl_cache_get_first(cache.get()); o != nullptr; o = nl_cache_get_next(o)) {
      auto* a = reinterpret_cast<rtnl_addr*>(o);
      if (rtnl_addr_get_ifindex(a) == index && rtnl_addr_get_family(a) == AF_INET6 &&
          (rtnl_addr_get_flags(a) & IFA_F_TENTATIVE) != 0) {
        tentative = true;
      }
    }
    if (!tentative) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace hil::link
