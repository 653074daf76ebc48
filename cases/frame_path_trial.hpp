// One RFC 2544 trial on a frame path below the socket layer (docs/frame-paths.md): the DUT's
// frames built once and handed to the kernel by AF_XDP, an AF_PACKET TX ring or a UDP socket (the
// first that opens on the DUT's interface), paced in batches against the monotonic clock, and
// counted by hilperf-peer (the hilperf extension's FRAME_COUNT: in XDP where it can, else on its
// socket), the counts coming back over the control connection as exact integers.
//
//   DUT (this process)                                   hilperf-peer
//     control: FRAME_COUNT ──────────────────────────────▶ counter attached, UDP port U
//     frame path opened on dut.interface, frames to U ───▶ counted, dropped
//     control: TEST_END ◀──────────────────────────────── frames, bytes, rx_packets growth
//
// What was offered is counted, never computed: `sent` is what the path's ring or syscall took
// (frames still in an AF_XDP ring at the window's end counted once the kernel consumed them);
// `received` is what the peer counted. A stock iperf3 server does not
// count frames: the trial throws session::extension_unsupported and the case runs iperf3 trials.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "hil/frame/batch_pacer.hpp"
#include "hil/frame/frame_sender.hpp"
#include "hil/iperf3/frame_count.hpp"
#include "hil/link/link_control.hpp"
#include "hil/measure/rfc2544_search.hpp"
#include "hil/session/frame_trial.hpp"

namespace hil::cases {

struct path_trial_options {
  session::frame_trial_options trial;  // the peer, its credentials, the frame size, IPv4 or IPv6
  std::string ifname;                  // the DUT's interface: the frames leave by it
  std::string src_ip;                  // the DUT's address (no prefix), of trial's IP version
  std::vector<frame::tx_path> order{frame::tx_path::af_xdp, frame::tx_path::af_packet_ring,
                                    frame::tx_path::udp_socket};
  std::uint32_t batch = 32;  // frames per release
  // Ask the peer to count in XDP (else on its socket: the simulated port in XDP, below).
  bool count_in_xdp = true;
};

// The pacing words of a frame path trial, for the record.
[[nodiscard]] std::string path_trial_pacing(std::uint32_t batch);

struct path_trial {
  measure::trial_outcome outcome;  // offered, sent (accepted), received (counted by the peer)
  frame::pace_result pace;         // the path, its counts and the interface's tx growth
  iperf3::frame_count_result counted;
  std::string count_why;  // the peer's reason for counting on its socket, or empty
  std::string path;       // "af_xdp (copy)": path_name and mode
  std::string summary;    // the path and why each path before it was skipped
};

// Runs one trial on link's namespace (the calling thread's): at fps for duration (fps 0: unpaced,
// as fast as the path takes frames, for the duration), or, with frames > 0, that many frames at
// fps then the end. Throws session::extension_unsupported for a peer that does not count frames,
// std::system_error when no path opens (each path's refusal named) or the peer fails.
[[nodiscard]] path_trial run_path_trial(link::link_control& link, const path_trial_options& o,
                                        double fps, std::chrono::milliseconds duration,
                                        std::uint64_t frames = 0);

}  // namespace hil::cases
