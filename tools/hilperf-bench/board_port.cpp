#include "board_port.hpp"

#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"
#include "hil/sys/process_list.hpp"

namespace hil::bench_tool {

namespace {

// The pids of the kernel's NAPI threads for devices named dev ("napi/<dev>-<napi id>").
std::set<pid_t> napi_threads(const std::string& dev) {
  std::set<pid_t> pids;
  const std::string prefix = "napi/" + dev + "-";
  for (const pid_t pid : sys::process_ids()) {
    if (sys::process_name(pid).starts_with(prefix)) pids.insert(pid);
  }
  return pids;
}

// Turns on threaded NAPI for dev in ns and returns the threads that appeared for it.
std::vector<pid_t> thread_napi(const std::string& ns, const std::string& dev) {
  const auto before = napi_threads(dev);
  sys::run_checked(
      {"ip", "netns", "exec", ns, "sh", "-c", "echo 1 > /sys/class/net/" + dev + "/threaded"});
  std::vector<pid_t> added;
  for (const pid_t p : napi_threads(dev)) {
    if (!before.contains(p)) added.push_back(p);
  }
  return added;
}

}  // namespace

port_threads make_ports_board_like(const bench::sim_layout& l) {
  for (const auto& [ns, dev] :
       {std::pair{l.dut_netns, l.dut_interface}, std::pair{l.peer_netns, l.peer_interface}}) {
    sys::run_checked({"ip", "netns", "exec", ns, "ethtool", "-K", dev, "tso", "off",
                      "tx-udp-segmentation", "off", "gro", "on"});
  }
  port_threads t{thread_napi(l.dut_netns, l.dut_interface),
                 thread_napi(l.peer_netns, l.peer_interface)};
  for (const auto& [threads, dev] :
       {std::pair{&t.dut, l.dut_interface}, std::pair{&t.peer, l.peer_interface}}) {
    if (threads->empty()) {
      throw std::runtime_error("no NAPI thread appeared for " + dev +
                               " after turning threaded NAPI on (GRO on a veth gives it NAPI)");
    }
  }
  return t;
}

namespace {
link::link_control control_in(const std::string& ns) {
  std::optional<link::link_control> c;
  sys::with_socket_namespace(ns, [&] { c.emplace(); });
  return std::move(*c);
}
}  // namespace

peer_link::peer_link(const bench::sim_layout& l)
    : interface_(l.peer_interface), control_(control_in(l.peer_netns)) {}

std::uint64_t peer_link::rx_packets() { return control_.counters(interface_).rx_packets; }

}  // namespace hil::bench_tool
