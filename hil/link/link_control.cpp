#include "hil/link/link_control.hpp"

#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <netlink/cache.h>
#include <netlink/errno.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/socket.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hil/link/detail/nl_handles.hpp"
#include "hil/link/nl_error.hpp"

namespace hil::link {
namespace {

using detail::cache_deleter;

// Owning handles for libnl objects.
struct msg_deleter {
  void operator()(nl_msg* m) const noexcept { nlmsg_free(m); }
};
struct cb_deleter {
  void operator()(nl_cb* c) const noexcept { nl_cb_put(c); }
};

std::string operstate_word(std::uint8_t state) {
  switch (state) {
    case IF_OPER_NOTPRESENT:
      return "notpresent";
    case IF_OPER_DOWN:
      return "down";
    case IF_OPER_LOWERLAYERDOWN:
      return "lowerlayerdown";
    case IF_OPER_TESTING:
      return "testing";
    case IF_OPER_DORMANT:
      return "dormant";
    case IF_OPER_UP:
      return "up";
    default:
      return "unknown";
  }
}

bool is_missing(int nl_result) {
  const int code = -nl_result;
  return code == NLE_OBJ_NOTFOUND || code == NLE_NODEV;
}

// NETLINK_ROUTE callback for read_mtu_bounds: picks the two attributes out of RTM_NEWLINK.
int on_link_message(nl_msg* msg, void* arg) {
  auto* info = static_cast<link_info*>(arg);
  nlattr* tb[IFLA_MAX + 1] = {};
  if (nlmsg_parse(nlmsg_hdr(msg), sizeof(ifinfomsg), tb, IFLA_MAX, nullptr) < 0) return NL_SKIP;
  if (tb[IFLA_MIN_MTU] != nullptr) info->min_mtu = static_cast<int>(nla_get_u32(tb[IFLA_MIN_MTU]));
  if (tb[IFLA_MAX_MTU] != nullptr) info->max_mtu = static_cast<int>(nla_get_u32(tb[IFLA_MAX_MTU]));
  return NL_OK;
}

}  // namespace

void link_control::sock_deleter::operator()(nl_sock* s) const noexcept { nl_socket_free(s); }
void link_control::link_deleter::operator()(rtnl_link* l) const noexcept { rtnl_link_put(l); }

link_control::link_control(sysfs_reader sysfs)
    : sock_(nl_socket_alloc()), sysfs_(std::move(sysfs)) {
  if (!sock_) throw std::bad_alloc();
  if (const int rc = nl_connect(sock_.get(), NETLINK_ROUTE); rc < 0) {
    throw_nl(rc, "cannot open a NETLINK_ROUTE socket");
  }
}

link_control::~link_control() = default;
link_control::link_control(link_control&&) noexcept = default;
link_control& link_control::operator=(link_control&&) noexcept = default;

std::vector<std::string> link_control::interface_names() {
  nl_cache* raw = nullptr;
  if (const int rc = rtnl_link_alloc_cache(sock_.get(), AF_UNSPEC, &raw); rc < 0) {
    throw_nl(rc, "cannot list network interfaces");
  }
  const std::unique_ptr<nl_cache, cache_deleter> cache(raw);
  std::vector<std::string> names;
  for (nl_object* o = nl_cache_get_first(cache.get()); o != nullptr; o = nl_cache_get_next(o)) {
    names.emplace_back(rtnl_link_get_name(reinterpret_cast<rtnl_link*>(o)));
  }
  return names;
}

bool link_control::exists(const std::string& ifname) {
  rtnl_link* raw = nullptr;
  const int rc = rtnl_link_get_kernel(sock_.get(), 0, ifname.c_str(), &raw);
  const link_ptr link(raw);
  if (rc < 0 && !is_missing(rc)) throw_nl(rc, "cannot query interface " + ifname);
  return rc >= 0;
}

void link_control::throw_missing(const std::string& ifname) {
  throw std::system_error(
      ENODEV, std::system_category(),
      fmt::format("no interface '{}' here; interfaces that exist: {} (check dut.interface in the "
                  "board profile)",
                  ifname, fmt::join(interface_names(), ", ")));
}

link_control::link_ptr link_control::fetch(const std::string& ifname) {
  rtnl_link* raw = nullptr;
  const int rc = rtnl_link_get_kernel(sock_.get(), 0, ifname.c_str(), &raw);
  link_ptr link(raw);
  if (rc < 0) {
    if (is_missing(rc)) throw_missing(ifname);
    throw_nl(rc, "cannot query interface " + ifname);
  }
  return link;
}

link_info link_control::info(const std::string& ifname) {
  const link_ptr link = fetch(ifname);
  link_info out;
  out.name = rtnl_link_get_name(link.get());
  out.index = rtnl_link_get_ifindex(link.get());
  out.mtu = static_cast<int>(rtnl_link_get_mtu(link.get()));
  out.admin_up = (rtnl_link_get_flags(link.get()) & IFF_UP) != 0;
  out.carrier = rtnl_link_get_carrier(link.get()) != 0;
  out.operstate = operstate_word(rtnl_link_get_operstate(link.get()));
  read_mtu_bounds(out);
  return out;
}

void link_control::change(const std::string& ifname, rtnl_link* changes, const std::string& what) {
  const link_ptr orig = fetch(ifname);
  if (const int rc = rtnl_link_change(sock_.get(), orig.get(), changes, 0); rc < 0) {
    const std::error_code ec = make_nl_error(rc);
    if (ec == std::errc::operation_not_permitted) {
      throw std::system_error(ec, fmt::format("{} needs CAP_NET_ADMIN (run as root or grant the "
                                              "capability)",
                                              what));
    }
    throw std::system_error(ec, "the kernel refused: " + what);
  }
}

void link_control::read_mtu_bounds(link_info& info) {
  const std::unique_ptr<nl_msg, msg_deleter> msg(nlmsg_alloc_simple(RTM_GETLINK, 0));
  const std::unique_ptr<nl_cb, cb_deleter> cb(nl_cb_alloc(NL_CB_DEFAULT));
  if (!msg || !cb) throw std::bad_alloc();
  ifinfomsg ifi{};
  ifi.ifi_family = AF_UNSPEC;
  ifi.ifi_index = info.index;
  if (nlmsg_append(msg.get(), &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0) throw std::bad_alloc();
  if (const int rc = nl_send_auto(sock_.get(), msg.get()); rc < 0) {
    throw_nl(rc, "cannot ask the kernel for the MTU range of " + info.name);
  }
  nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_link_message, &info);
  // nl_send_auto asked for an ACK: consume it too, or the next request would read it as its answer.
  if (const int rc = nl_recvmsgs(sock_.get(), cb.get()); rc < 0) {
    throw_nl(rc, "cannot read the MTU range of " + info.name);
  }
  if (const int rc = nl_wait_for_ack(sock_.get()); rc < 0) {
    throw_nl(rc, "cannot read the MTU range of " + info.name);
  }
}

void link_control::set_mtu(const std::string& ifname, int mtu) {
  const link_info before = info(ifname);
  const link_ptr changes(rtnl_link_alloc());
  if (!changes) throw std::bad_alloc();
  rtnl_link_set_mtu(changes.get(), static_cast<unsigned>(mtu));
  try {
    change(ifname, changes.get(), fmt::format("setting the MTU of {} to {}", ifname, mtu));
  } catch (const std::system_error& e) {
    if (e.code() == std::errc::operation_not_permitted) throw;
    const bool out_of_range = before.max_mtu > 0 && (mtu < before.min_mtu || mtu > before.max_mtu);
    throw std::system_error(
        e.code(), out_of_range ? fmt::format("MTU {} is outside the range {}..{} that the driver "
                                             "of {} accepts",
                                             mtu, before.min_mtu, before.max_mtu, ifname)
                               : fmt::format("the kernel refused MTU {} on {} (driver range "
                                             "{}..{})",
                                             mtu, ifname, before.min_mtu, before.max_mtu));
  }
  const int via_netlink = info(ifname).mtu;
  const int via_sysfs = sysfs_.mtu(ifname);
  if (via_netlink != mtu || via_sysfs != mtu) {
    throw std::system_error(std::make_error_code(std::errc::io_error),
                            fmt::format("MTU {} on {} was accepted but reads back as {} through "
                                        "netlink and {} through sysfs",
                                        mtu, ifname, via_netlink, via_sysfs));
  }
}

void link_control::set_admin_up(const std::string& ifname, bool up) {
  const link_ptr changes(rtnl_link_alloc());
  if (!changes) throw std::bad_alloc();
  if (up) {
    rtnl_link_set_flags(changes.get(), IFF_UP);
  } else {
    rtnl_link_unset_flags(changes.get(), IFF_UP);
  }
  change(ifname, changes.get(), fmt::format("setting {} {}", ifname, up ? "up" : "down"));
}

link_counters link_control::counters(const std::string& ifname) {
  const link_ptr link = fetch(ifname);
  const auto stat = [&](rtnl_link_stat_id_t id) { return rtnl_link_get_stat(link.get(), id); };
  link_counters c;
  c.rx_packets = stat(RTNL_LINK_RX_PACKETS);
  c.tx_packets = stat(RTNL_LINK_TX_PACKETS);
  c.rx_bytes = stat(RTNL_LINK_RX_BYTES);
  c.tx_bytes = stat(RTNL_LINK_TX_BYTES);
  c.rx_errors = stat(RTNL_LINK_RX_ERRORS);
  c.tx_errors = stat(RTNL_LINK_TX_ERRORS);
  c.rx_dropped = stat(RTNL_LINK_RX_DROPPED);
  c.tx_dropped = stat(RTNL_LINK_TX_DROPPED);
  c.rx_crc_errors = stat(RTNL_LINK_RX_CRC_ERR);
  c.rx_frame_errors = stat(RTNL_LINK_RX_FRAME_ERR);
  c.rx_fifo_errors = stat(RTNL_LINK_RX_FIFO_ERR);
  c.rx_missed_errors = stat(RTNL_LINK_RX_MISSED_ERR);
  c.tx_carrier_errors = stat(RTNL_LINK_TX_CARRIER_ERR);
  c.collisions = stat(RTNL_LINK_COLLISIONS);
  return c;
}

}  // namespace hil::link
