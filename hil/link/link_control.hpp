// Control of one network namespace's links through rtnetlink (libnl-route-3), read back through
// both netlink and sysfs. This is how hilperf replaces `ip link set <if> mtu …` and
// `cat /sys/class/net/<if>/…` in the test procedure.
//
// Errors follow hil/sys/error.hpp: std::system_error whose message a user can act on —
//   - a missing interface lists the interfaces that exist (ENODEV),
//   - EPERM says CAP_NET_ADMIN is needed,
//   - an MTU outside the driver's range names that range (EINVAL).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "hil/link/counters.hpp"
#include "hil/link/sysfs.hpp"

struct nl_sock;
struct rtnl_link;

namespace hil::link {

// A link's state as netlink reports it in one RTM_GETLINK answer.
struct link_info {
  std::string name;
  int index = 0;
  int mtu = 0;
  int min_mtu = 0;        // IFLA_MIN_MTU, the driver's lower bound (0 when not reported)
  int max_mtu = 0;        // IFLA_MAX_MTU, the driver's upper bound (0 when not reported)
  bool admin_up = false;  // IFF_UP: `ip link set <if> up`
  bool carrier = false;   // the PHY sees a link partner
  std::string operstate;  // RFC 2863 word, lower case: up, down, lowerlayerdown, …
};

class link_control {
 public:
  // Opens a NETLINK_ROUTE socket in the calling thread's network namespace.
  explicit link_control(sysfs_reader sysfs = sysfs_reader());
  ~link_control();
  link_control(link_control&&) noexcept;
  link_control& operator=(link_control&&) noexcept;
  link_control(const link_control&) = delete;
  link_control& operator=(const link_control&) = delete;

  // The interface names in this namespace, in ifindex order.
  [[nodiscard]] std::vector<std::string> interface_names();
  // True when ifname exists.
  [[nodiscard]] bool exists(const std::string& ifname);
  // Everything netlink says about ifname. Throws ENODEV listing the existing interfaces.
  [[nodiscard]] link_info info(const std::string& ifname);
  // The MTU through netlink.
  [[nodiscard]] int mtu(const std::string& ifname) { return info(ifname).mtu; }
  // Sets the MTU (`ip link set <if> mtu M`) and confirms it by reading back through netlink and
  // sysfs; throws when the kernel refuses (naming the driver's range) or a read-back differs.
  void set_mtu(const std::string& ifname, int mtu);
  // Sets the administrative state (`ip link set <if> up|down`).
  void set_admin_up(const std::string& ifname, bool up);
  // A snapshot of the interface's statistics.
  [[nodiscard]] link_counters counters(const std::string& ifname);
  // The netlink socket, for the other rtnetlink objects of this namespace (addresses).
  [[nodiscard]] nl_sock* socket() const noexcept { return sock_.get(); }
  // The sysfs view this control reads back through.
  [[nodiscard]] const sysfs_reader& sysfs() const noexcept { return sysfs_; }

 private:
  struct sock_deleter {
    void operator()(nl_sock* s) const noexcept;
  };
  struct link_deleter {
    void operator()(rtnl_link* l) const noexcept;
  };
  using link_ptr = std::unique_ptr<rtnl_link, link_deleter>;

  // The kernel's current view of ifname; throws ENODEV listing what exists, or the libnl error.
  [[nodiscard]] link_ptr fetch(const std::string& ifname);
  // Applies a change object to ifname (rtnl_link_change); what names the change for messages.
  void change(const std::string& ifname, rtnl_link* changes, const std::string& what);
  // Reads IFLA_MIN_MTU/IFLA_MAX_MTU, which libnl's link object does not carry.
  void read_mtu_bounds(link_info& info);
  // The ENODEV error for a missing ifname, listing what exists.
  [[noreturn]] void throw_missing(const std::string& ifname);

  std::unique_ptr<nl_sock, sock_deleter> sock_;  // connected NETLINK_ROUTE socket
  sysfs_reader sysfs_;                           // the second read-back path
};

}  // namespace hil::link
