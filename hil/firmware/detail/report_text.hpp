// What the dialects share: a firmware's figures read out of console text (numbers as printed,
// every match of a report line), and the parts of command lines they write alike.
#pragma once

#include <cstdint>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "hil/firmware/dialect.hpp"

namespace hil::firmware::detail {

// "iperf -c <peer> [-u]" or "iperf -s [-u]": the head of an iPerf 2 style command line (ST67W6X,
// ESP-IDF); throws std::invalid_argument for a client without a server or a run of no time.
[[nodiscard]] std::string iperf2_style_head(const iperf_request& r);

// "27.2" as 27.2, "23128" as 23128; 0 when text does not start with a number.
[[nodiscard]] double decimal(std::string_view text);
[[nodiscard]] std::uint64_t whole(std::string_view text);

// Every match of line in text, in order, each as its groups (the whole match first).
[[nodiscard]] std::vector<std::vector<std::string>> matches(std::string_view text,
                                                            const std::regex& line);

// A rate as the firmware writes it, decimal: whole Mbit/s with mega ("50M"), else whole kbit/s
// with kilo ("27500K"); throws std::invalid_argument naming firmware when bitrate_bps is 0 or
// not a whole kbit/s.
[[nodiscard]] std::string decimal_rate(std::uint64_t bitrate_bps, char mega, char kilo,
                                       std::string_view firmware);

}  // namespace hil::firmware::detail
