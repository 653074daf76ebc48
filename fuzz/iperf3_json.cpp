// fuzz_iperf3_json: the -J output of a stock iperf3 (or ours) as the comparisons read it
// (hil/report/iperf3_json.hpp parse_iperf3_json): leading lines, the first JSON object, bare
// nan/inf, trailing text.
//
// Expected outcome: std::system_error(protocol_error) naming what is missing or malformed.
// Findings: any other exception, a crash, and a summary with a negative stream or interval count.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "hil/report/iperf3_json.hpp"

// One input: a tool's output.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto s = hil::report::parse_iperf3_json(hil::fuzz::as_text(data, size));
    if (s.num_streams < 0) hil::fuzz::finding("a negative stream count");
  } catch (const std::system_error& e) {
    hil::fuzz::expect_code(e, std::errc::protocol_error, "parse_iperf3_json");
  }
  return 0;
}
