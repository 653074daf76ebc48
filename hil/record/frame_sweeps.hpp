// Kinds "rfc2544_frame_loss", "rfc2544_back_to_back" and "rfc2544_latency": one frame size's
// RFC 2544 §26.3 frame loss sweep, §26.4 back-to-back search and §26.2 latency (Rfc2544 cases),
// with every trial or burst they ran, so a report can draw loss against offered load and a reader
// can tell the port's limit from the sender's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hil/record/frame_throughput.hpp"
#include "hil/record/latency.hpp"

namespace hil::record {

// The frames a sweep or search sent and the port they were sent to.
struct frame_port {
  std::uint32_t frame_bytes = 0;    // Ethernet frame: header, payload, FCS
  std::uint32_t payload_bytes = 0;  // the UDP payload that makes it
  int ip_version = 4;
  double line_mbps = 0;                     // the line rate the media maximum is of
  double media_max_fps = 0;                 // line / ((frame + 20) · 8)
  std::string pacing;                       // how the sender shaped its bursts, in words
  std::string direction = "dut_transmits";  // or "dut_receives": the peer sent (iperf3 -R)
  // The frame path the DUT's frames took ("af_xdp (copy)", "af_packet_ring (qdisc bypassed)",
  // "udp_socket (sendmmsg)": hil/frame) and why others were skipped; empty for iperf3 UDP tests.
  std::string tx_path{};
};

struct frame_loss_figures {
  frame_port port;
  double step_percent = 0;           // each step lowers the load by this % of the maximum
  double floor_percent = 0;          // the throughput floor: no loss accepted at or below it
  double accepted_loss_percent = 0;  // 0: RFC 2544's zero loss
  bool settled = false;              // two successive loss-free steps ended the sweep
  std::string tool_limited;          // non-empty: the trial that showed the sender's limit
  // Present when a load above the floor was not offered, its sender short of it without loss: the
  // best rate that sender reached (the sweep went on below it).
  std::optional<double> sender_ceiling_fps;
  // Every trial in the order run; the last one at an offered rate is that load's measurement
  // (passed: loss-free; confirmation is never set), but for a load not offered (above).
  std::vector<frame_trial_record> trials;
};

struct burst_record {
  std::uint64_t frames = 0;  // the burst's length
  int repeat = 0;            // 0-based
  std::uint64_t received = 0;
  double sent_fps = 0;  // the rate the sender achieved over the burst
  bool passed = false;  // every frame arrived
  bool at_line_rate = true;
};

struct back_to_back_figures {
  frame_port port;
  std::uint64_t max_frames = 0;  // the longest burst tried
  double resolution_percent = 0;
  std::vector<std::uint64_t> longest;  // per repeat: the longest whole burst
  double average_frames = 0;
  double spread_frames = 0;          // the repeats' sample standard deviation
  std::vector<burst_record> bursts;  // in the order run
};

struct frame_latency_figures {
  frame_port port;
  double load_percent = 0;    // stream and probes together, % of the media maximum
  frame_trial_record stream;  // the stream the probes went through (passed: within the loss)
  int probes_sent = 0;        // ICMP echo requests of the frame size
  int probes_received = 0;    // answered
  double probe_interval_ms = 0;
  latency_distribution round_trip;  // of the answered probes
};

}  // namespace hil::record
