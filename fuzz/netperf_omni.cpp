// fuzz_netperf_omni: what a netserver answers our netperf client (hil/netperf/omni.hpp): the
// OMNI_RESPONSE to a DO_OMNI request and the results message after the test. Every message is
// 656 bytes, so each decoder gets the input as it is (any other length must be refused) and
// padded with zeros or cut to 656 bytes (which reaches the fields).
//
// Expected outcome: std::system_error(protocol_error) naming the field. Findings: any other
// exception, a crash, a data port of 0, and an elapsed time or CPU figure that is no number.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_support.hpp"
#include "hil/netperf/omni.hpp"

namespace {

namespace netperf = hil::netperf;
using hil::fuzz::finding;

// An OMNI_RESPONSE: read only at 656 bytes, and then with a data port.
void check_response(std::span<const std::uint8_t> msg) {
  try {
    const auto s = netperf::decode_response(msg);
    if (msg.size() != netperf::message_size) finding("a response of the wrong size was read");
    if (s.data_port == 0) finding("a response without a data port was read");
  } catch (const std::system_error& e) {
    hil::fuzz::expect_code(e, std::errc::protocol_error, "decode_response");
  }
}

// A results message: read only at 656 bytes, and then with an elapsed time that is a duration.
void check_results(std::span<const std::uint8_t> msg) {
  try {
    const auto r = netperf::decode_results(msg);
    if (msg.size() != netperf::message_size) finding("results of the wrong size were read");
    if (!std::isfinite(r.elapsed_s) || r.elapsed_s < 0)
      finding("an elapsed time that is no duration");
  } catch (const std::system_error& e) {
    hil::fuzz::expect_code(e, std::errc::protocol_error, "decode_results");
  }
}

}  // namespace

// One input: a message from netserver, as received and as a whole message.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = hil::fuzz::as_bytes(data, size);
  check_response(in);
  check_results(in);
  netperf::message whole{};
  std::copy_n(data, std::min(size, whole.size()), whole.begin());
  check_response(whole);
  check_results(whole);
  if (size >= 8) {
    const auto serv_errno = static_cast<std::int32_t>(
        (std::uint32_t{data[4]} << 24U) | (std::uint32_t{data[5]} << 16U) |
        (std::uint32_t{data[6]} << 8U) | std::uint32_t{data[7]});
    (void)netperf::describe_serv_errno(serv_errno);
  }
  return 0;
}
