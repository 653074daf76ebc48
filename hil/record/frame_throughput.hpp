// Kind "rfc2544_throughput": one frame size's RFC 2544 §26.1 throughput (Rfc2544 cases): the
// highest loss-free frame rate the search found, the media maximum it is a share of, and every
// trial the search ran — offered, sent and received frames — so a report can show the search and
// a reader can tell a port's limit from a sender's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hil::record {

struct frame_trial_record {
  double offered_fps = 0;
  double sent_fps = 0;  // what the sender achieved
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
  double seconds = 0;
  bool passed = false;
  bool confirmation = false;
  // The sender kept the schedule, and lost no more frames than its catch-up may explain
  bool valid = true;
  // What the DUT's port counted out during the trial (its tx_packets growth, other frames
  // included), when the DUT sent; absent otherwise.
  std::optional<std::uint64_t> port_carried;
  // When hilperf sent the trial: the most frames its sender held overdue at once (it fell behind
  // its schedule and caught up above the rate); absent when a peer sent.
  std::optional<std::uint64_t> sender_overdue;
};

struct frame_throughput_figures {
  std::uint32_t frame_bytes = 0;    // Ethernet frame: header, payload, FCS (64 … 1518, 9018)
  std::uint32_t payload_bytes = 0;  // the UDP payload that makes it
  int ip_version = 4;
  std::string direction = "dut_transmits";  // or "dut_receives": the peer sent (iperf3 -R)
  double line_mbps = 0;                     // the port's line rate the media maximum is of
  double media_max_fps = 0;                 // line / ((frame + 20) · 8)
  std::optional<double> throughput_fps;     // none: no loss-free rate found, or the tool's limit
  double accepted_loss_percent = 0;         // 0: RFC 2544's zero loss
  double resolution_percent = 0;            // of the media maximum
  std::string pacing;                       // how the sender shaped its bursts, in words
  std::string tool_limited;                 // non-empty: the trial that showed the sender's limit
  // Present with throughput_fps when the rate above it was the sender's cap, not the port's loss:
  // the best rate that sender reached. throughput_fps is then a lower bound of the port's.
  std::optional<double> sender_ceiling_fps;
  std::string tx_path;  // as frame_port's: the frame path the DUT's frames took, or empty
  // Present when the DUT's transmit path was calibrated (an unpaced burst on its frame path):
  // the most frames per second it put onto the link. The search ran up to it when below the
  // media maximum.
  std::optional<double> transmit_ceiling_fps;
  std::vector<frame_trial_record> trials;  // in the order run

  // The found rate as a share of the media maximum, and as frame bits/s (RFC 2544's Mbit/s).
  [[nodiscard]] std::optional<double> percent_of_media_max() const {
    if (!throughput_fps || media_max_fps <= 0) return std::nullopt;
    return 100 * *throughput_fps / media_max_fps;
  }
  [[nodiscard]] std::optional<double> frame_mbps() const {
    if (!throughput_fps) return std::nullopt;
    return *throughput_fps * frame_bytes * 8 / 1e6;
  }
};

}  // namespace hil::record
