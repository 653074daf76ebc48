// The simulated bench's Ethernet port emulated in XDP (sim.frame_port = "xdp"): ethernet_port's
// counterpart that charges each frame on the receiving end instead of queueing it on the sending
// one (docs/xdp.md, "The simulated port in XDP").
//
//   netns <dut>                                   netns <peer>
//   eth0 ── no qdisc ──────── veth ──────────────► pc0: hil_port (XDP), NAPI threaded
//   eth0: hil_port (XDP), NAPI threaded ◄─ veth ── no qdisc ── pc0
//
// tbf on the sending end re-arms its watchdog and wakes the receiver's poll in the sender's
// context for every frame or two, so at 1 Gbit/s the sender, not the port, sets the rate; in XDP
// the charge runs in the receiving interface's poll, a kernel thread of its own. The programs are
// held by a child process (hilperf-xdp-port), so that this library carries neither libbpf nor
// libxdp, and the case binaries load no XDP program. No queue: a burst above the bucket is dropped,
// not delayed (tbf stays where a queue is the point).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "hil/bench/sim_bench.hpp"

namespace hil::sys {
class child_process;
}

namespace hil::bench {

// Frames a veth's ring toward its receiver holds (VETH_RING_SIZE): a receive poll held up takes
// that many back to back, so the bucket must hold at least as many frames of the trial's size.
inline constexpr std::uint64_t veth_ring_frames = 256;

// The bucket, in wire bytes (frame + 20 each), of a port carrying frames of frame_bytes: the
// ring's frames of that size, and at least two of the largest either end may send (max_frame_bytes,
// control connections included), which must pass whole.
[[nodiscard]] std::uint64_t xdp_bucket_bytes(int frame_bytes, int max_frame_bytes);

// Both ends of l emulated as an Ethernet port of mbit in XDP for this object's life: the bench's
// own tbf (l.shape_mbit) off both ends meanwhile, then back, as ethernet_port does. port_binary is
// hilperf-xdp-port. Throws std::system_error with the program's own message (no XDP in this
// build, no privileges, the kernel's refusal) when it does not get ready within 20 s.
class xdp_ethernet_port {
 public:
  // napi_cpu ≥ 0: the receiving ends' NAPI threads (real-time) kept on that CPU, away from a
  // sender pinned elsewhere, whose catch-up after their preemption would exceed the bucket.
  xdp_ethernet_port(sim_layout l, int mbit, std::uint64_t bucket_bytes,
                    const std::filesystem::path& port_binary, int napi_cpu = -1);
  // Stops the program (it detaches), prints each end's passed and dropped frames, restores tbf;
  // reports a failure on stderr, never throws.
  ~xdp_ethernet_port();
  xdp_ethernet_port(const xdp_ethernet_port&) = delete;
  xdp_ethernet_port& operator=(const xdp_ethernet_port&) = delete;

  // How long the bucket takes to fill again from empty: a trial started sooner after one above the
  // rate finds less than a full bucket.
  [[nodiscard]] std::chrono::milliseconds drain_time() const;
  // The frames the port has dropped so far on the peer's end (what the DUT's port counted out and
  // the port did not carry): the veth's own xdp_drops (ethtool -S), which it counts in native XDP
  // only. Throws std::system_error quoting ethtool when it cannot be read.
  [[nodiscard]] std::uint64_t peer_end_drops() const;
  // What hilperf-xdp-port said: the attach mode of each end (native, or generic and why).
  [[nodiscard]] std::string description() const;

 private:
  sim_layout layout_;
  int mbit_;
  std::uint64_t bucket_bytes_;
  std::unique_ptr<sys::child_process> program_;
};

}  // namespace hil::bench
