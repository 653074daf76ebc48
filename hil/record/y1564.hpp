// Kind "y1564": one frame size's ITU-T Y.1564 service configuration test (Y1564 cases): the
// service's committed information rate (CIR), its acceptance criteria, and every step of the
// CIR it was offered at — the stream's frames, the ICMP probes inside it, and the figures the
// step was judged by — so a report can show the step table and a reader can tell the port's
// limit from the sender's.
#pragma once

#include <vector>

#include "hil/record/frame_sweeps.hpp"
#include "hil/record/latency.hpp"

namespace hil::record {

struct y1564_step_record {
  double percent = 0;         // of the CIR
  double offered_mbps = 0;    // the step's rate: percent of the CIR, Mbit/s of whole frames
  double ir_mbps = 0;         // the information rate received (stream and probes)
  double flr_percent = 0;     // frames lost of those sent (stream and probes)
  double ftd_ms = 0;          // the probes' median round trip
  double fdv_ms = 0;          // the probes' p99 less their minimum
  bool pass = false;          // the step met every criterion with the sender on schedule
  frame_trial_record stream;  // the step's stream (valid: the sender kept its rate)
  int probes_sent = 0;
  int probes_received = 0;
  latency_distribution round_trip;  // of the answered probes
};

struct y1564_figures {
  frame_port port;
  double cir_mbps = 0;  // Mbit/s of whole Ethernet frames (destination address to FCS)
  double flr_limit_percent = 0;
  double ftd_limit_ms = 0;
  double fdv_limit_ms = 0;
  double probe_interval_ms = 0;
  std::vector<y1564_step_record> steps;  // in the order run (rising)
};

}  // namespace hil::record
