// The XDP tests' link: a veth pair between two namespaces of this process's own, named after its
// pid (hilxdp<pid>-tx and -rx, ends tx0 and rx0), no qdisc shaping, MTU 1500, IPv6 off so the
// kernel sends nothing of its own: every frame rx0 receives is one the test sent.
#pragma once

#include <unistd.h>

#include <iostream>
#include <string>

#include "hil/sys/error.hpp"
#include "hil/sys/process.hpp"

namespace hil::test {

struct xdp_pair_names {
  std::string tx_netns;
  std::string rx_netns;
  std::string tx_if = "tx0";
  std::string rx_if = "rx0";
};

// The names of this run's pair, computed once (before main forks into the rx namespace).
inline const xdp_pair_names& xdp_pair() {
  static const xdp_pair_names names = [] {
    const std::string base = "hilxdp" + std::to_string(::getpid());
    return xdp_pair_names{base + "-tx", base + "-rx"};
  }();
  return names;
}

// The pair for this object's life.
class xdp_pair_session {
 public:
  xdp_pair_session() {
    const auto& n = xdp_pair();
    teardown();
    for (const auto& ns : {n.tx_netns, n.rx_netns}) {
      sys::run_checked({"ip", "netns", "add", ns});
      sys::run_checked({"ip", "netns", "exec", ns, "sysctl", "-qw",
                        "net.ipv6.conf.all.disable_ipv6=1",
                        "net.ipv6.conf.default.disable_ipv6=1"});
      sys::run_checked({"ip", "-n", ns, "link", "set", "lo", "up"});
    }
    sys::run_checked({"ip", "-n", n.tx_netns, "link", "add", n.tx_if, "address", tx_mac, "type",
                      "veth", "peer", "name", n.rx_if, "address", rx_mac, "netns", n.rx_netns});
    sys::run_checked({"ip", "-n", n.tx_netns, "addr", "add", "198.18.1.1/24", "dev", n.tx_if});
    sys::run_checked({"ip", "-n", n.rx_netns, "addr", "add", "198.18.1.2/24", "dev", n.rx_if});
    // Permanent neighbours: no ARP of the kernel's own (rx0 answering a passed frame with an ICMP
    // error would otherwise ask for tx0's address, and count the reply).
    sys::run_checked({"ip", "-n", n.tx_netns, "neigh", "add", "198.18.1.2", "lladdr", rx_mac, "dev",
                      n.tx_if, "nud", "permanent"});
    sys::run_checked({"ip", "-n", n.rx_netns, "neigh", "add", "198.18.1.1", "lladdr", tx_mac, "dev",
                      n.rx_if, "nud", "permanent"});
    sys::run_checked({"ip", "-n", n.tx_netns, "link", "set", n.tx_if, "up"});
    sys::run_checked({"ip", "-n", n.rx_netns, "link", "set", n.rx_if, "up"});
    // rx0's receive poll as a thread of its own (a veth has a NAPI once GRO or XDP is on):
    // otherwise it runs in the softirq of the CPU that sent, and the programs' cost with it.
    const auto threaded = sys::run(
        {"ip", "netns", "exec", n.rx_netns, "sh", "-c",
         "ethtool -K " + n.rx_if + " gro on && echo 1 > /sys/class/net/" + n.rx_if + "/threaded"});
    if (threaded.exit_code != 0) {
      std::cerr << "rx0's NAPI stays in the sender's softirq: " << threaded.output << '\n';
    }
  }

  static constexpr const char* tx_mac = "02:00:00:00:00:01";
  static constexpr const char* rx_mac = "02:00:00:00:00:02";
  ~xdp_pair_session() {
    try {
      teardown();
    } catch (const std::exception& e) {
      sys::report_destructor_failure("xdp_pair_session", e.what());
    }
  }
  xdp_pair_session(const xdp_pair_session&) = delete;
  xdp_pair_session& operator=(const xdp_pair_session&) = delete;

 private:
  static void teardown() {
    for (const auto& ns : {xdp_pair().tx_netns, xdp_pair().rx_netns}) {
      (void)sys::run({"ip", "netns", "del", ns});  // absent is fine
    }
  }
};

}  // namespace hil::test
