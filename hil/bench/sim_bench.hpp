// The simulated bench: two network namespaces joined by a veth pair, standing in for the board and
// the lab PC when no board is configured.
//
//   netns hilperf-<bench>-dut            netns hilperf-<bench>-peer
//   ┌──────────────────────────┐         ┌──────────────────────────┐
//   │ eth0  198.18.0.10/24     │ veth    │ pc0  198.18.0.195/24     │
//   │       2001:2::10/64      ├─────────┤      2001:2::195/64      │
//   │ tbf <shape_mbit> egress  │         │ tbf egress, MTU peer_mtu │
//   └──────────────────────────┘         └──────────────────────────┘
//
// Built with iproute2 (`ip`, `tc`), created directly inside the namespaces: nothing on the host's
// own interfaces changes, and no traffic leaves the namespaces. Addresses come from the
// benchmarking ranges 198.18.0.0/15 and 2001:2::/48 (the profile validator enforces that).
#pragma once

#include <chrono>
#include <string>

#include "hil/profile/profile.hpp"

namespace hil::bench {

// Everything needed to build or find one simulated bench.
struct sim_layout {
  std::string dut_netns;       // hilperf-<bench>-dut
  std::string peer_netns;      // hilperf-<bench>-peer
  std::string dut_interface;   // the DUT's veth end (profile dut.interface)
  std::string peer_interface;  // the peer's veth end (profile sim.peer_interface)
  std::string dut_ipv4;        // with prefix, e.g. 198.18.0.10/24
  std::string peer_ipv4;       // with the DUT's prefix
  std::string dut_ipv6;        // with prefix; empty when the bench has no IPv6
  std::string peer_ipv6;
  int shape_mbit = 0;  // tbf rate on both ends; 0 = unshaped
  int peer_mtu = 1500;
};

// The layout a sim-mode profile describes. Throws std::invalid_argument for other modes.
sim_layout layout_of(const profile::profile& p);

// A bench of this process's own, for the project's tests and benchmarks: namespaces
// hilperf-<tag><pid>-dut and -peer (never the suite's bench, nor another process's), the DUT end
// dut_interface, the peer end pc0, 198.18.0.10/24 and 198.18.0.195/24 (the benchmarking range).
// Unshaped, no IPv6, peer MTU 1500: the caller sets what it needs beyond that.
sim_layout private_layout(const std::string& tag, const std::string& dut_interface);

// The bench's shaping of one end: tbf on ifname's egress in namespace ns at mbit (0: none), a
// burst of 4 ms at the rate (at least 64 KiB so one TSO/GSO segment fits), latency bound 20 ms.
// Throws std::system_error quoting tc.
void shape(const std::string& ns, const std::string& ifname, int mbit);

// Both ends of l back to the bench's own shaping (shape() at l.shape_mbit), for the destructors of
// the ports below: a failure is printed to stderr, never thrown.
void restore_shaping(const sim_layout& l) noexcept;

// One end shaped as an Ethernet port of mbit: tbf counting each frame's FCS, preamble and
// inter-frame gap (overhead 24: tbf sees a frame without its FCS), so it carries at most the media
// maximum mbit · 10⁶ / ((frame + 20) · 8) frames/s, as a real port does (RFC 2544 cases). The
// bucket holds two frames of max_frame_bytes, which must be the largest either end may send at
// its MTU (+ 18), control connections included: tbf drops a frame larger than its bucket. The
// queue holds 100 ms at the rate (at least 32,000 bytes): a board's default 1,000-frame
// txqueue holds more (1.2 s of 1518-byte frames at 10 Mbit/s), and at a load near the line rate a
// sender's stalls add up in the queue (the port idles while the sender waits, and cannot catch
// up), 31 ms over a 2 s burst on a quiet 2-vCPU runner, where 10 ms of queue overflowed.
// Throws std::system_error quoting tc.
void shape_ethernet(const std::string& ns, const std::string& ifname, int mbit,
                    int max_frame_bytes);

// What shape_ethernet gives tbf: its bucket in wire bytes (frame + 20: tbf's overhead counts them
// so) and its queue limit in the bytes tbf counts (the frame without its FCS).
struct ethernet_shape {
  long bucket_bytes = 0;
  long queue_bytes = 0;
};
[[nodiscard]] ethernet_shape ethernet_shape_of(int mbit, int max_frame_bytes);

// Both ends of l shaped by shape_ethernet for this object's lifetime; l's own shaping (shape())
// is back on destruction (a failure to restore is printed to stderr: destructors do not throw).
class ethernet_port {
 public:
  ethernet_port(sim_layout l, int mbit, int max_frame_bytes);
  ~ethernet_port();
  ethernet_port(const ethernet_port&) = delete;
  ethernet_port& operator=(const ethernet_port&) = delete;

  // How long the port takes, idle, to send all it can hold and refill its bucket: a trial that
  // starts sooner after the last finds part of it still full.
  [[nodiscard]] std::chrono::milliseconds drain_time() const;

 private:
  sim_layout layout_;
  int mbit_;
  ethernet_shape shape_;
};

enum class up_result { created, already_up };

// Creates the bench, or re-applies shaping and the peer MTU when it is already complete (a partial
// bench from an interrupted run is removed and rebuilt). Throws std::system_error quoting the
// failing command.
up_result bench_up(const sim_layout& l);

// Stops processes left in the bench's namespaces and deletes both namespaces (which deletes the
// veth pair). Absent namespaces are fine. Throws when a namespace cannot be removed.
void bench_down(const sim_layout& l);

// True when both namespaces exist and the DUT interface is in its namespace.
bool bench_is_up(const sim_layout& l);

// A human-readable report: namespaces, links, addresses, MTUs, qdiscs.
std::string bench_status(const sim_layout& l);

// RAII: brings the bench up on construction when it is not up, and takes it down on destruction
// when it created it. A bench that is already up is used as it is (not re-configured), so a fault
// a test injected into it stays in place.
class bench_session {
 public:
  explicit bench_session(sim_layout l);
  ~bench_session();
  bench_session(const bench_session&) = delete;
  bench_session& operator=(const bench_session&) = delete;
  [[nodiscard]] bool created() const noexcept { return created_; }
  [[nodiscard]] const sim_layout& layout() const noexcept { return layout_; }

 private:
  sim_layout layout_;  // the bench this session holds
  bool created_;       // true when this session made it (and so removes it)
};

}  // namespace hil::bench
