#include "hil/measure/link_checks.hpp"

#include <fmt/format.h>

namespace hil::measure {

verdict check_link_state(const std::string& ifname, bool admin_up, bool carrier,
                         const std::string& operstate) {
  verdict v;
  v.check = "LinkState";
  v.observed = fmt::format("{} admin {}, carrier {}, operstate {}", ifname,
                           admin_up ? "up" : "down", carrier ? "yes" : "no", operstate);
  v.limit = "admin up, carrier yes, operstate up";
  v.pass = admin_up && carrier && operstate == "up";
  if (!admin_up) {
    v.cause = fmt::format("the interface is administratively down (ip link set {} up)", ifname);
  } else if (!carrier) {
    v.cause = "no link partner: cable unplugged or faulty, or the peer's port is down";
  } else if (!v.pass) {
    v.cause = "the driver has not brought the link to operational state (check dmesg)";
  }
  return v;
}

verdict check_link_speed(const std::string& ifname, std::optional<int> observed_mbps,
                         int expected_mbps) {
  verdict v;
  v.check = "LinkSpeed";
  v.observed = observed_mbps ? fmt::format("{} Mb/s", *observed_mbps)
                             : std::string("unknown (the driver reports no speed: link down?)");
  v.limit = fmt::format("== {} Mb/s (link.speed_mbps)", expected_mbps);
  v.pass = observed_mbps == expected_mbps;
  if (!v.pass) {
    v.cause = observed_mbps && *observed_mbps < expected_mbps
                  ? fmt::format(
                        "{} did not negotiate {} Mb/s: check the cable (Cat5e or better), "
                        "the peer's NIC and autonegotiation (ethtool {})",
                        ifname, expected_mbps, ifname)
                  : fmt::format(
                        "{} reports a speed the profile does not expect: check "
                        "link.speed_mbps in the board profile and ethtool {}",
                        ifname, ifname);
  }
  return v;
}

verdict check_duplex(const std::string& ifname, const std::string& observed,
                     const std::string& expected) {
  verdict v;
  v.check = "Duplex";
  v.observed = observed;
  v.limit = fmt::format("== {} (link.duplex)", expected);
  v.pass = observed == expected;
  if (!v.pass) {
    v.cause = fmt::format(
        "duplex mismatch or failed autonegotiation on {}: a forced speed on one "
        "end only gives half duplex (ethtool {})",
        ifname, ifname);
  }
  return v;
}

verdict check_mtu_read_back(const std::string& ifname, int requested, int via_netlink,
                            int via_sysfs) {
  verdict v;
  v.check = "MtuReadBack";
  v.observed = fmt::format("netlink {}, sysfs {}", via_netlink, via_sysfs);
  v.limit = fmt::format("both == {}", requested);
  v.pass = via_netlink == requested && via_sysfs == requested;
  if (!v.pass) {
    v.cause = fmt::format("the driver of {} accepted MTU {} but applied another value", ifname,
                          requested);
  }
  return v;
}

verdict check_connectivity(const std::string& ifname, const std::string& peer, int sent,
                           int received, double avg_rtt_ms) {
  verdict v;
  v.check = "Connectivity";
  v.observed = received > 0 ? fmt::format("{}/{} echo replies from {} via {}, avg rtt {:.3f} ms",
                                          received, sent, peer, ifname, avg_rtt_ms)
                            : fmt::format("0/{} echo replies from {} via {}", sent, peer, ifname);
  v.limit = fmt::format("{}/{} replies", sent, sent);
  v.pass = sent > 0 && received == sent;
  if (received == 0) {
    v.cause =
        "the peer is unreachable: same subnet on both ends? the peer's firewall dropping "
        "ICMP? link down (see LinkState)?";
  } else if (!v.pass) {
    v.cause = "echo replies lost: a flapping link, a bad cable, or an overloaded peer";
  }
  return v;
}

}  // namespace hil::measure
