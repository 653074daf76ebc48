// The Y.1564 service configuration table (report_model's services), as plain cells for each
// markup's writer. Pure functions.
//
//   | frame (bytes) | step (% of CIR) | offered (Mbit/s) | IR (Mbit/s) | FLR (%) | FTD (ms) | FDV
//   (ms) | probes answered | step | | 512           |              25 |            2.165
//   |       2.164 |   0.000 |    0.081 |    0.412 |         160/160 | pass |
//
// A "port" column (board and link rate) comes first when the results hold several.
#pragma once

#include <vector>

#include "hil/report/report_model.hpp"
#include "hil/report/tables.hpp"

namespace hil::report {

// How the delay figures differ from Y.1564's definitions, printed under the table.
inline constexpr const char* y1564_note =
    "FTD is the median round trip of ICMP echo requests of the frame size sent between the "
    "step's frames and answered by the peer's host, FDV their 99th percentile less their minimum; "
    "Y.1564 defines both one way (clocks in sync). IR and FLR count the stream's frames and the "
    "probes together.";

// A row per step of each service, services in the model's order.
[[nodiscard]] text_grid y1564_grid(const std::vector<service_result>& services);

}  // namespace hil::report
