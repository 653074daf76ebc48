// fuzz_iperf2_wire: what an iperf 2 client or server sends us (hil/iperf2/wire.hpp): a TCP
// stream's or a datagram's client header, a datagram's prefix, the UDP server's report, and the
// first byte of a connection to a shared port. Each decoder gets the input at offset 0 and, as a
// UDP server reads a datagram, the header after the 16-byte prefix.
//
// Expected outcome: nullopt for too few bytes or no header flag; these decoders throw nothing.
// Findings: any exception, a crash, a header length outside 24..256, and a header or prefix that
// does not encode back to what was decoded.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_support.hpp"
#include "hil/iperf2/wire.hpp"

namespace {

namespace iperf2 = hil::iperf2;
using hil::fuzz::finding;

// Whether headers a and b carry the same settings.
bool same_header(const iperf2::client_header& a, const iperf2::client_header& b) {
  return a.flags == b.flags && a.streams == b.streams && a.port == b.port &&
         a.buffer_len == b.buffer_len && a.amount == b.amount && a.upper_flags == b.upper_flags &&
         a.rate_bps == b.rate_bps;
}

// A client header at the start of bytes, as a server acts on it.
void check_header(std::span<const std::uint8_t> bytes) {
  const auto h = iperf2::decode_header(bytes);
  if (!h) return;
  const std::size_t length = iperf2::header_length(h->flags);
  if (length < iperf2::min_header_size || length > 256) finding("a header length outside 24..256");
  (void)h->duration();
  (void)h->way();
  (void)iperf2::wants_ack(*h);
  if (bytes.size() < iperf2::header_size) return;  // shorter headers leave fields at defaults
  const auto back = iperf2::decode_header(iperf2::encode_header(*h));
  if (!back || !same_header(*h, *back)) finding("a client header that does not encode back");
}

// A datagram's prefix: the same after encode_prefix() and a second decode.
void check_prefix(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < iperf2::prefix_size) return;
  const auto p = iperf2::decode_prefix(bytes.first<iperf2::prefix_size>());
  std::array<std::uint8_t, iperf2::prefix_size> out{};
  iperf2::encode_prefix(out, p);
  const auto back = iperf2::decode_prefix(out);
  if (back.seq != p.seq || back.sec != p.sec || back.usec != p.usec) {
    finding("a datagram prefix that does not encode back");
  }
}

// A server report: its times are never negative.
void check_report(std::span<const std::uint8_t> bytes) {
  const auto r = iperf2::decode_report(bytes);
  if (!r) return;
  if (r->duration.count() < 0 || r->jitter.count() < 0) finding("a report of negative time");
}

}  // namespace

// One input: a TCP stream's first bytes or a datagram.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = hil::fuzz::as_bytes(data, size);
  if (size > 0) (void)iperf2::classify_first_byte(data[0]);
  check_header(in);
  if (size >= iperf2::prefix_size) check_header(in.subspan(iperf2::prefix_size));
  check_prefix(in);
  check_report(in);
  return 0;
}
