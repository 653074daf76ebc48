#include "hil/bench/sim_bench.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "hil/sys/cidr.hpp"
#include "hil/sys/error.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"

namespace hil::bench {
namespace {

using sys::prefix_of;
using sys::run;
using sys::run_checked;

// Waits (at most 5 s) until ifname in ns has no tentative IPv6 address. A tentative link-local
// address (duplicate address detection, a second or two after the link comes up) keeps the end
// from resolving its IPv6 neighbours: the first test over IPv6 would lose its first second (a UDP
// -R client's asks, a TCP SYN). With accept_dad off it is over within milliseconds: a new address
// is still tentative until the kernel's address work has run once.
void wait_ipv6_settled(const std::string& ns, const std::string& ifname) {
  using namespace std::chrono_literals;
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < deadline) {
    const auto r = run({"ip", "-n", ns, "-6", "addr", "show", "dev", ifname, "tentative"});
    if (r.exit_code == 0 && r.output.find("inet6") == std::string::npos) return;
    std::this_thread::sleep_for(50ms);
  }
}

// Addresses, MTU, shaping and link state on both ends; every step is idempotent.
void configure(const sim_layout& l) {
  const auto& d = l.dut_netns;
  const auto& p = l.peer_netns;
  run_checked({"ip", "-n", d, "link", "set", "lo", "up"});
  run_checked({"ip", "-n", p, "link", "set", "lo", "up"});
  run_checked({"ip", "-n", d, "addr", "replace", l.dut_ipv4, "dev", l.dut_interface});
  run_checked({"ip", "-n", p, "addr", "replace", l.peer_ipv4, "dev", l.peer_interface});
  if (!l.dut_ipv6.empty()) {
    // No duplicate address detection on a private link: the link-local addresses too are usable
    // at once (below), as the global ones are with nodad.
    for (const auto& [ns, ifname] :
         {std::pair{d, l.dut_interface}, std::pair{p, l.peer_interface}}) {
      run_checked({"ip", "netns", "exec", ns, "sysctl", "-qw",
                   fmt::format("net.ipv6.conf.{}.accept_dad=0", ifname)});
    }
    // nodad: the address is usable at once instead of after duplicate address detection.
    run_checked(
        {"ip", "-n", d, "-6", "addr", "replace", l.dut_ipv6, "dev", l.dut_interface, "nodad"});
    run_checked(
        {"ip", "-n", p, "-6", "addr", "replace", l.peer_ipv6, "dev", l.peer_interface, "nodad"});
  }
  run_checked({"ip", "-n", p, "link", "set", l.peer_interface, "mtu", std::to_string(l.peer_mtu)});
  shape(d, l.dut_interface, l.shape_mbit);
  shape(p, l.peer_interface, l.shape_mbit);
  run_checked({"ip", "-n", d, "link", "set", l.dut_interface, "up"});
  run_checked({"ip", "-n", p, "link", "set", l.peer_interface, "up"});
  if (!l.dut_ipv6.empty()) {
    wait_ipv6_settled(d, l.dut_interface);
    wait_ipv6_settled(p, l.peer_interface);
  }
}

// Kills whatever still runs inside a namespace (peers of an interrupted run).
void kill_processes_in(const std::string& ns) {
  const auto r = run({"ip", "netns", "pids", ns});
  std::istringstream pids(r.output);
  for (pid_t pid = 0; pids >> pid;) ::kill(pid, SIGKILL);
}

}  // namespace

void shape(const std::string& ns, const std::string& ifname, int mbit) {
  if (mbit <= 0) {
    run({"tc", "-n", ns, "qdisc", "del", "dev", ifname, "root"});  // absent is fine
    return;
  }
  const long burst = std::max(65536L, static_cast<long>(mbit) * 1000000L / 8 / 250);
  run_checked({"tc", "-n", ns, "qdisc", "replace", "dev", ifname, "root", "tbf", "rate",
               fmt::format("{}mbit", mbit), "burst", std::to_string(burst), "latency", "20ms"});
}

ethernet_shape ethernet_shape_of(int mbit, int max_frame_bytes) {
  constexpr long frame_cost = 24;  // FCS 4, preamble and start delimiter 8, gap 12
  return {2L * (max_frame_bytes + frame_cost),
          std::max(32000L, static_cast<long>(mbit) * 1'000'000L / 8 / 10)};
}

void shape_ethernet(const std::string& ns, const std::string& ifname, int mbit,
                    int max_frame_bytes) {
  constexpr int frame_cost = 24;
  const ethernet_shape e = ethernet_shape_of(mbit, max_frame_bytes);
  run_checked({"tc", "-n", ns, "qdisc", "replace", "dev", ifname, "root", "tbf", "rate",
               fmt::format("{}mbit", mbit), "burst", std::to_string(e.bucket_bytes), "limit",
               std::to_string(e.queue_bytes), "overhead", std::to_string(frame_cost)});
}

ethernet_port::ethernet_port(sim_layout l, int mbit, int max_frame_bytes)
    : layout_(std::move(l)), mbit_(mbit), shape_(ethernet_shape_of(mbit, max_frame_bytes)) {
  shape_ethernet(layout_.dut_netns, layout_.dut_interface, mbit, max_frame_bytes);
  try {
    shape_ethernet(layout_.peer_netns, layout_.peer_interface, mbit, max_frame_bytes);
  } catch (...) {
    shape(layout_.dut_netns, layout_.dut_interface, layout_.shape_mbit);
    throw;
  }
}

std::chrono::milliseconds ethernet_port::drain_time() const {
  const double bits = 8.0 * static_cast<double>(shape_.bucket_bytes + shape_.queue_bytes);
  return std::chrono::milliseconds(static_cast<long>(std::ceil(1000 * bits / (mbit_ * 1e6))));
}

void restore_shaping(const sim_layout& l) noexcept {
  for (const auto& [ns, ifname] :
       {std::pair{l.dut_netns, l.dut_interface}, std::pair{l.peer_netns, l.peer_interface}}) {
    try {
      shape(ns, ifname, l.shape_mbit);
    } catch (const std::exception& e) {
      std::cerr << "hilperf: could not restore the bench's shaping of " << ifname << " in " << ns
                << ": " << e.what() << '\n';
    }
  }
}

ethernet_port::~ethernet_port() { restore_shaping(layout_); }

sim_layout private_layout(const std::string& tag, const std::string& dut_interface) {
  const std::string name = "hilperf-" + tag + std::to_string(::getpid());
  sim_layout l;
  l.dut_netns = name + "-dut";
  l.peer_netns = name + "-peer";
  l.dut_interface = dut_interface;
  l.peer_interface = "pc0";
  l.dut_ipv4 = "198.18.0.10/24";
  l.peer_ipv4 = "198.18.0.195/24";
  return l;
}

sim_layout layout_of(const profile::profile& p) {
  if (p.peer.mode != profile::peer_mode::sim) {
    throw std::invalid_argument("profile " + p.source + " does not describe a simulated bench");
  }
  sim_layout l;
  l.dut_netns = p.dut_netns();
  l.peer_netns = p.peer_netns();
  l.dut_interface = p.dut.interface;
  l.peer_interface = p.sim.peer_interface;
  l.dut_ipv4 = p.dut.ipv4;
  l.peer_ipv4 = p.peer.ipv4 + prefix_of(p.dut.ipv4);
  if (!p.dut.ipv6.empty()) {
    l.dut_ipv6 = p.dut.ipv6;
    l.peer_ipv6 = p.peer.ipv6 + prefix_of(p.dut.ipv6);
  }
  l.shape_mbit = p.sim.shape_mbit;
  l.peer_mtu = p.sim.peer_mtu;
  return l;
}

bool bench_is_up(const sim_layout& l) {
  if (!sys::netns_exists(l.dut_netns) || !sys::netns_exists(l.peer_netns)) return false;
  return run({"ip", "-n", l.dut_netns, "link", "show", "dev", l.dut_interface}).exit_code == 0 &&
         run({"ip", "-n", l.peer_netns, "link", "show", "dev", l.peer_interface}).exit_code == 0;
}

up_result bench_up(const sim_layout& l) {
  if (bench_is_up(l)) {
    configure(l);
    return up_result::already_up;
  }
  bench_down(l);  // whatever an interrupted run left half-built
  run_checked({"ip", "netns", "add", l.dut_netns});
  run_checked({"ip", "netns", "add", l.peer_netns});
  // Both ends are created inside their namespaces: the host's interface list never changes.
  run_checked({"ip", "link", "add", "name", l.dut_interface, "netns", l.dut_netns, "type", "veth",
               "peer", "name", l.peer_interface, "netns", l.peer_netns});
  configure(l);
  return up_result::created;
}

void bench_down(const sim_layout& l) {
  for (const auto& ns : {l.dut_netns, l.peer_netns}) {
    if (!sys::netns_exists(ns)) continue;
    kill_processes_in(ns);
    run_checked({"ip", "netns", "del", ns});
  }
}

std::string bench_status(const sim_layout& l) {
  std::string out;
  for (const auto& [ns, ifname] :
       {std::pair{l.dut_netns, l.dut_interface}, std::pair{l.peer_netns, l.peer_interface}}) {
    if (!sys::netns_exists(ns)) {
      out += fmt::format("{}: absent\n", ns);
      continue;
    }
    out += fmt::format("{}:\n", ns);
    out += run({"ip", "-n", ns, "-br", "addr", "show", "dev", ifname}).output;
    out += run({"ip", "-n", ns, "-d", "link", "show", "dev", ifname}).output;
    out += run({"tc", "-n", ns, "qdisc", "show", "dev", ifname}).output;
  }
  return out;
}

bench_session::bench_session(sim_layout l)
    : layout_(std::move(l)),
      created_(!bench_is_up(layout_) && bench_up(layout_) == up_result::created) {}

bench_session::~bench_session() {
  if (!created_) return;
  try {
    bench_down(layout_);
  } catch (const std::exception& e) {
    sys::report_destructor_failure("bench_session", e.what());
  }
}

}  // namespace hil::bench
