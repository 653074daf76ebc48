// The RFC 2544 and Y.1564 cases' common part (docs/checks.md "Rfc2544", "Y1564"): one case per
// frame size of the profile (and, for RFC 2544, the jumbo MTU's frame) and per path of the
// profile's (rfc2544.directions × rfc2544.ip_versions: the DUT sending or receiving, over IPv4 or
// IPv6; measure/frame_path.hpp), the port prepared for it —
// the DUT's MTU raised so the frame leaves whole, and on the simulated bench the port shaped as
// Ethernet of sim.frame_port_mbit for the case (tbf on the sending ends, or with sim.frame_port =
// "xdp" a token bucket in XDP on the receiving ends) — and each trial an iperf3 UDP test of that
// frame size (session/frame_trial.hpp), against hilperf-peer or any stock iperf3 -s.
//
//   TEST_P(Case, Name) {
//     if (!prepare_port()) return;           // skipped (jumbo off, no iperf3 peer) or failed
//     … find_throughput / sweep_frame_loss / find_back_to_back with trial() …
//   }
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cases/frame_path_trial.hpp"
#include "cases/probed_trial.hpp"
#include "fixtures/traffic_fixture.hpp"
#include "hil/bench/sim_bench.hpp"
#include "hil/bench/xdp_port.hpp"
#include "hil/measure/frame_path.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/record/frame_sweeps.hpp"
#include "hil/session/frame_trial.hpp"
#include "hil/session/workload_client.hpp"

namespace hil::cases {

struct frame_case {
  int frame = 0;
  bool jumbo = false;  // the jumbo MTU's frame: skipped unless mtu.jumbo_enabled
  measure::frame_path path;
};

// gtest prints a parameter by its frame size and path, not its bytes.
void PrintTo(const frame_case& c, std::ostream* os);

// The smallest frame whose IPv6 UDP datagram an iperf3 server accepts (-l 16 at least: its
// header and a 64-bit count): 82 bytes. An IPv6 path runs this frame in place of smaller ones of
// the list (a 64-byte frame leaves no payload under IPv6's 40-byte header).
[[nodiscard]] int smallest_ipv6_frame();

// The profile's frame sizes and the jumbo MTU's frame (mtu.jumbo + 14 + 4), unless listed, on
// each of the profile's paths: IPv4 before IPv6, the DUT transmitting before it receives.
[[nodiscard]] std::vector<frame_case> frame_cases();

// Y1564's frame sizes (y1564.frame_sizes; no jumbo frame unless listed), on the same paths.
[[nodiscard]] std::vector<frame_case> y1564_frame_cases();

// "frame64", "frame64_dut_receives", "frame82_ipv6": the cases' parameter name.
[[nodiscard]] std::string frame_case_name(const ::testing::TestParamInfo<frame_case>& info);

// A trial of a search or sweep as its record keeps it.
[[nodiscard]] record::frame_trial_record trial_record_of(const measure::trial_record& t);

class frame_size_test : public fixtures::traffic_test,
                        public ::testing::WithParamInterface<frame_case> {
 protected:
  // Skips (jumbo frame off; a peer that is not an iperf3 server; an IPv6 path without IPv6
  // addresses) or fails (no line rate) as the case must, else raises the MTU and shapes the
  // simulated port. False when the case is to end.
  [[nodiscard]] bool prepare_port();

  [[nodiscard]] std::uint32_t frame() const { return static_cast<std::uint32_t>(frame_); }
  [[nodiscard]] const measure::frame_path& path() const { return GetParam().path; }
  // "frame64_dut_receives": the case's frame and path, for log lines.
  [[nodiscard]] std::string frame_name() const { return measure::frame_path_name(frame(), path()); }
  // Where the trials go, for a failure that could not run one: "peer.ipv4 and peer.port".
  [[nodiscard]] std::string peer_keys() const;
  [[nodiscard]] int line_mbps() const { return line_mbps_; }
  [[nodiscard]] double media_max() const { return media_max_; }
  // The trial's client: the peer, its credentials, frames of frame() bytes over the path's IP
  // version, iperf3's -R when the DUT receives.
  [[nodiscard]] const session::frame_trial_options& trial() const { return trial_; }
  // The frames and the port, for a record.
  [[nodiscard]] record::frame_port port_record() const;
  // One trial of the case — on the frame path when the case has one (frame_path_trial.hpp),
  // else session::run_frame_trial with trial() — and when the DUT sends, what
  // its port counted out meanwhile (port_carried: the tx_packets growth of dut.interface, none
  // when the counters went backwards), so the search can tell frames lost beyond the port
  // (measure/rfc2544_search.hpp). Throws what run_frame_trial throws.
  [[nodiscard]] measure::trial_outcome run_trial(double fps, std::chrono::milliseconds d) const;
  // One back-to-back burst (on the frame path, else session::run_frame_burst with trial()), with
  // port_carried as run_trial's. Throws what run_frame_burst throws.
  [[nodiscard]] measure::trial_outcome run_burst(double fps, std::uint64_t frames) const;
  // A stream with probes inside it (run_probed_trial with trial() through dut.interface), and
  // when the DUT sends, the stream's port_carried: the port's count less the probes it sent.
  // Throws what run_probed_trial throws.
  [[nodiscard]] probed_trial run_probed(double total_fps, double probe_share,
                                        std::chrono::milliseconds duration) const;

  // The DUT's transmit path calibrated on the case's frame path: unpaced bursts of length (the
  // frames as fast as the path takes them), each counted onto the link by the interface's
  // tx_packets, the best of up to three while it stays below need_fps. nullopt when the case
  // sends no frames of its own (the peer sends, a stock iperf3 server, rfc2544.sender =
  // "iperf3", the simulated port in tbf). Throws what run_path_trial throws.
  [[nodiscard]] std::optional<measure::transmit_ceiling> transmit_ceiling(
      std::chrono::milliseconds length, double need_fps) const;

  // Waits before a trial until the port has sent what the last one left in it (RFC 2544 §23:
  // the DUT rests between trials): 100 ms, plus on the simulated bench its port's drain time, on
  // a board a full transmit queue (1,000 frames) of the largest frame at the line rate.
  void rest() const;

  // The tester's ceiling against what the check needs offered (required_fps), for the cases whose
  // own trials cannot tell it from the port's (measure::probe_ceiling): trials at the media
  // maximum. BackToBack probes before its bursts (a burst of a fixed count lasts as long as a slow
  // sender needs): 1 s trials, up to three. Latency and Y1564 probe after a stream whose sender
  // fell short (theirs last their duration) with one trial as long as that stream (`sustained`):
  // a sender that reaches the need for a second may not hold it for a trial, and the stream was
  // the first measurement at that length. The need is at most line rate (within 1 %). nullopt
  // when the sender reached the need; else the case ends as not measurable
  // (fixtures::case_outcome's not_measurable). May throw what run_frame_trial throws.
  [[nodiscard]] std::optional<measure::tester_ceiling> ceiling_below(
      double required_fps, std::optional<std::chrono::milliseconds> sustained = std::nullopt) const;

  // Prints one line per trial, as a tester's log shows it, and returns t.
  static measure::trial_outcome logged(const std::string& what, const measure::trial_outcome& t,
                                       const std::string& length);

 private:
  void prepare();
  // Chooses the DUT's sender (rfc2544.sender; path_trial_ set when a frame path may be tried).
  void choose_sender();
  // The peer declined to count frames (a stock iperf3 server): says so, and the case's trials are
  // iperf3 UDP tests from then on.
  void no_frame_count(const session::extension_unsupported& e) const;
  // The case's frame path trial of fps for d (frames > 0: a burst of that many), or nullopt when
  // the case has no frame path (then or since the peer said it counts none: iperf3 trials).
  [[nodiscard]] std::optional<measure::trial_outcome> path_trial_of(double fps,
                                                                    std::chrono::milliseconds d,
                                                                    std::uint64_t frames) const;
  // run() (a trial or burst), and when the DUT sends, what its port counted out meanwhile less
  // `others` of what run returns (frames it knows it sent besides), as out's port_carried.
  template <typename Runner, typename Besides>
  [[nodiscard]] auto witnessed(Runner run, Besides others) const;

  int frame_ = 0;
  int line_mbps_ = 0;
  double media_max_ = 0;
  session::frame_trial_options trial_;
  std::optional<bench::ethernet_port> port_;          // sim.frame_port = "tbf"
  std::optional<bench::xdp_ethernet_port> xdp_port_;  // sim.frame_port = "xdp"
  std::chrono::milliseconds rest_{100};
  // The frame path's options while the case sends on one; reset when the peer counts no frames.
  mutable std::optional<path_trial_options> path_options_;
  // The path the last frame path trial took, for the record: empty while none ran (iperf3
  // trials), and then the pacing words are iperf3's.
  mutable std::string tx_path_;
  // The frames the last frame path trial's peer counted in XDP: its program dropped them after
  // counting, so the XDP port's drop count (witnessed) holds them too.
  mutable std::uint64_t counted_in_xdp_ = 0;
  mutable bool path_trial_ran_ = false;  // the last witnessed run was a frame path trial
  mutable bool path_told_ = false;       // the log said which path the trials take
};

}  // namespace hil::cases
