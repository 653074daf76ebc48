// The emulated Ethernet port (port_shaper) on an interface of a named network namespace, for the
// simulated bench: attached from a thread that entered the namespace, with the interface's receive
// poll a thread of its own meanwhile, so the port's cost lands on a core of its own and not in the
// softirq of the CPU that sent.
//
//   netns_port("hilperf-hp0-peer", "pc0", s):
//     ethtool -K pc0 gro on; echo 1 > /sys/class/net/pc0/threaded    (the veth then has a NAPI,
//     port_shaper attached to pc0, configured as s                       polled by a kthread)
//   ~netns_port: detached, threaded and GRO as they were, in reverse order
//
// The process stays in its own namespace: netlink (attach, detach, the interface's counters) runs
// on a thread that entered the interface's namespace, the sysfs and ethtool steps through
// `ip netns exec`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "hil/xdp/port_shaper.hpp"

namespace hil::xdp {

// The receiving end's NAPI as a kernel thread of its own for this object's life (GRO on first: a
// veth has a NAPI only once GRO or XDP is on), real-time (SCHED_FIFO 50) when this object made
// it, so the emulated port is never held up behind a busy process. Each setting is put back as it
// was on destruction (a failure is reported on stderr). Throws std::system_error quoting the
// command that failed.
class napi_thread {
 public:
  // cpu ≥ 0: the threads kept on that CPU too (away from a sender on another one).
  napi_thread(std::string netns, std::string ifname, int cpu = -1);
  ~napi_thread();
  napi_thread(const napi_thread&) = delete;
  napi_thread& operator=(const napi_thread&) = delete;

 private:
  std::string netns_;
  std::string ifname_;
  std::string gro_before_;             // "on" or "off"
  std::string threaded_before_;        // "0" or "1"
  std::vector<std::string> realtime_;  // pids of the NAPI threads made SCHED_FIFO 50 here
};

class netns_port {
 public:
  // Threads ifname's receive poll, then attaches and configures the port emulation there. Throws
  // std::system_error naming the namespace and interface (port_shaper's and napi_thread's causes).
  // napi_cpu: as napi_thread's cpu.
  netns_port(const std::string& netns, const std::string& ifname, const port_setting& s,
             int napi_cpu = -1);
  ~netns_port();  // detaches in the namespace, then puts the NAPI back; never throws
  netns_port(const netns_port&) = delete;
  netns_port& operator=(const netns_port&) = delete;

  // The port's counters, bucket and the interface's counters (port_shaper::read).
  [[nodiscard]] port_reading read();
  [[nodiscard]] const port_shaper& shaper() const noexcept { return *shaper_; }
  [[nodiscard]] const std::string& netns() const noexcept { return netns_; }

 private:
  std::string netns_;
  napi_thread napi_;                     // put back after the program has gone
  std::unique_ptr<port_shaper> shaper_;  // made and destroyed inside netns_
};

}  // namespace hil::xdp
