// The RFC 2544 frame loss and back-to-back tables (report_model's losses and bursts), as plain
// cells for each markup's writer. Pure functions.
//
//   | offered load (% of max) | frame64 loss (%) | frame1518 loss (%) |      one column per frame
//   | 100                     |            0.000 |            0.000 |      size (and board and link
//   | 90                      |            0.000 |            0.000 |      rate when several)
//
//   | frame (bytes) | longest burst (frames) | spread (frames) | s at line rate |
//   | 64            |                  29762 |             0.0 |          2.000 |
#pragma once

#include <string>
#include <vector>

#include "hil/report/report_model.hpp"
#include "hil/report/tables.hpp"

namespace hil::report {

// How the latency figures differ from RFC 2544 §26.2's definition, printed under their table.
inline constexpr const char* frame_latency_note =
    "Round trips of ICMP echo requests of each frame size, answered by the peer's host, sent "
    "between the frames of a stream that, with them, loads the port to the frame size's "
    "throughput floor; RFC 2544 times one tagged frame of the stream one way (clocks in sync) at "
    "the throughput found, once per 120 s trial.";

// A row per offered load (highest first), a column per frame size: its loss in %, empty where
// that load was not run; a sweep stopped at the sender's limit says so in its last row.
[[nodiscard]] text_grid loss_grid(const std::vector<loss_curve>& losses);

// A row per frame size, and per board and link rate a column group: the average longest burst
// (marked when the sender was below line rate), its spread, and its length in seconds at line
// rate.
[[nodiscard]] text_grid burst_grid(const std::vector<burst_row>& bursts);

// A row per frame size, and per board and link rate a column group: the load, the probes'
// round trip p50, p99 and max in ms, and the probes answered of those sent.
[[nodiscard]] text_grid frame_latency_grid(const std::vector<frame_latency_row>& rows);

// The series' label: "frame64", with the port (port_label) when the results have several.
[[nodiscard]] std::string loss_label(const loss_curve& c, bool several_ports);

// Whether the curves come from more than one port (board, link rate or frame path).
[[nodiscard]] bool several_ports(const std::vector<loss_curve>& losses);

}  // namespace hil::report
