// The report ESP-IDF's iperf prints about a finished run (esp_text.hpp's lines), written from
// what stock iPerf 2 printed about the same traffic (iperf2_text.hpp). Pure.
//
//   connect info ─ header ─ a period line per interval (one, 0 to -t, when -i is -t) ─ summary
//
// Seconds are the firmware's whole ticks: a run's summary is 0.0 to its -t, whatever iPerf 2
// measured; its bytes are what iPerf 2 counted.
#pragma once

#include <string>
#include <vector>

#include "esp_text.hpp"
#include "iperf2_text.hpp"

namespace hil::mcu_sim::esp {

// The connect info and the traffic header (the report task's first words, at the first packet).
[[nodiscard]] std::vector<std::string> connect_lines(int id, const run& r,
                                                     const iperf2_connection& c);

// The period lines and the summary of run r (instance id) from text; empty without figures.
[[nodiscard]] std::vector<std::string> traffic_lines(int id, const run& r,
                                                     const iperf2_run_text& text);

}  // namespace hil::mcu_sim::esp
