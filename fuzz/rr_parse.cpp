// fuzz_rr_parse: what the request/response tools print, as hilperf-rr-bench reads it
// (tools/hilperf-rr-bench/rr_parse.hpp): hilperf's -J JSON, sockperf's coloured text, netperf's
// CSV line, and the version lines of all three. Every input is offered to each parser.
//
// Expected outcome: std::runtime_error saying what was missing. Findings: any other exception
// (std::regex_error is a runtime_error too, but a parser that throws one has a broken pattern or
// ran out of stack), a crash, and figures that are no numbers.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <regex>
#include <stdexcept>

#include "fuzz_support.hpp"
#include "rr_parse.hpp"

namespace {

namespace rr = hil::rr_bench_tool;
using hil::fuzz::finding;

// Runs one parser on text; a std::runtime_error is its documented refusal.
template <typename Parse>
void check(Parse&& parse, std::string_view text) {
  try {
    const rr::rr_sample s = parse(text);
    if (std::isnan(s.transactions_per_second) || std::isnan(s.p50_us) || std::isnan(s.p90_us) ||
        std::isnan(s.p99_us)) {
      finding("an rr_sample with a figure that is no number");
    }
  } catch (const std::regex_error& e) {
    finding(e.what());
  } catch (const std::runtime_error&) {
  }
}

}  // namespace

// One input: a tool's output.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = hil::fuzz::as_text(data, size);
  check(rr::parse_hilperf_json, text);
  check(rr::parse_sockperf, text);
  check(rr::parse_netperf, text);
  (void)rr::version_line(text);
  if (rr::strip_ansi(text).size() > size) finding("strip_ansi made text longer");
  return 0;
}
