#include "hil/measure/udp_stats.hpp"

#include <cmath>
#include <limits>

namespace hil::measure {

namespace {

// |a − b| without overflow for the values a monotonic clock produces.
std::chrono::nanoseconds abs_diff(std::chrono::nanoseconds a, std::chrono::nanoseconds b) {
  return a >= b ? a - b : b - a;
}

}  // namespace

udp_snapshot interval_delta(const udp_snapshot& begin, const udp_snapshot& end) {
  udp_snapshot d;
  d.datagrams = end.datagrams - begin.datagrams;
  d.bytes = end.bytes - begin.bytes;
  d.highest_seq = end.highest_seq - begin.highest_seq;
  d.lost = end.lost - begin.lost;
  d.out_of_order = end.out_of_order - begin.out_of_order;
  d.jitter_s = end.jitter_s;
  return d;
}

void udp_receiver_stats::on_datagram(std::uint64_t wire_seq, std::chrono::nanoseconds sent,
                                     std::chrono::nanoseconds arrived, std::size_t payload_bytes,
                                     bool counters_64bit) {
  ++datagrams_;
  bytes_ += payload_bytes;
  count_sequence(unwrap(wire_seq, counters_64bit));
  update_jitter(sent, arrived);
}

void udp_receiver_stats::on_run(std::uint64_t first_wire_seq, std::uint64_t count,
                                std::chrono::nanoseconds sent, std::chrono::nanoseconds arrived,
                                std::size_t payload_bytes_each, bool counters_64bit) {
  if (count == 0) return;
  on_datagram(first_wire_seq, sent, arrived, payload_bytes_each, counters_64bit);
  const std::uint64_t rest = count - 1;
  const std::uint64_t first = highest_seq_;
  if (rest == 0) return;
  if (unwrap(first_wire_seq, counters_64bit) != first) {
    // The first was late (out of order): take the rest one by one, as iperf3 would.
    for (std::uint64_t i = 1; i <= rest; ++i) {
      on_datagram(first_wire_seq + i, sent, arrived, payload_bytes_each, counters_64bit);
    }
    return;
  }
  // In order and gap-free: the highest sequence advances, nothing is lost, and every transit
  // equals the first's, so each jitter step is (0 - jitter) / 16.
  datagrams_ += rest;
  bytes_ += rest * payload_bytes_each;
  highest_seq_ += rest;
  jitter_s_ *= std::pow(15.0 / 16.0, static_cast<double>(rest));
}

void udp_receiver_stats::restart_jitter() {
  jitter_s_ = 0;
  have_transit_ = false;
}

udp_snapshot udp_receiver_stats::snapshot() const {
  return udp_snapshot{datagrams_, bytes_, highest_seq_, lost_, out_of_order_, jitter_s_};
}

// Serial-number arithmetic (RFC 1982 style) against the highest sequence seen: a 32-bit value
// within 2^31 ahead of it is forward, within 2^31 behind it is late. iperf3 has no such step
// (see the file comment); below 2^31 this is the identity, so results match iperf3 there.
std::uint64_t udp_receiver_stats::unwrap(std::uint64_t wire_seq, bool counters_64bit) const {
  if (counters_64bit) return wire_seq;
  const auto low = static_cast<std::uint32_t>(wire_seq);
  // Modular distance from the highest sequence's low 32 bits, as a signed 32-bit step.
  const auto step = static_cast<std::int32_t>(low - static_cast<std::uint32_t>(highest_seq_));
  if (step >= 0) return highest_seq_ + static_cast<std::uint32_t>(step);
  const auto back = static_cast<std::uint64_t>(-static_cast<std::int64_t>(step));
  // No epoch before the first: a value "behind" sequence 0 can only be a forward jump.
  if (back > highest_seq_) return low;
  return highest_seq_ - back;
}

// iperf3's constant-storage loss/reorder accounting: anything above the highest sequence is
// forward and a gap counts as loss; anything else (late or duplicate, which iperf3 cannot tell
// apart) is out of order and takes one loss back, if any is outstanding.
void udp_receiver_stats::count_sequence(std::uint64_t seq) {
  if (seq > highest_seq_) {
    const std::uint64_t gap = seq - 1 - highest_seq_;
    constexpr auto max_lost = std::numeric_limits<std::int64_t>::max();
    // Saturate instead of overflowing on a garbage 64-bit sequence.
    lost_ = gap > static_cast<std::uint64_t>(max_lost - lost_)
                ? max_lost
                : lost_ + static_cast<std::int64_t>(gap);
    highest_seq_ = seq;
  } else {
    ++out_of_order_;
    if (lost_ > 0) --lost_;
  }
}

// RFC 3550 §6.4.1 / A.8 exactly as iperf3 applies it:
//  - transit is |arrival − sent| (iperf_time_diff returns the magnitude), so a constant clock
//    offset cancels in the difference, but a transit whose sign flips is folded at zero;
//  - the first datagram sets prev_transit to its own transit, so it contributes D = 0 and jitter
//    stays 0 instead of jumping to transit/16;
//  - J += (|D| − J) / 16, in double seconds.
// Transit is kept in integer nanoseconds, so D is exact; iperf3 truncates arrival to whole
// microseconds and subtracts doubles, which differs by well under a microsecond.
void udp_receiver_stats::update_jitter(std::chrono::nanoseconds sent,
                                       std::chrono::nanoseconds arrived) {
  const auto transit = abs_diff(arrived, sent);
  if (!have_transit_) {
    prev_transit_ = transit;
    have_transit_ = true;
  }
  const auto d = abs_diff(transit, prev_transit_);
  prev_transit_ = transit;
  jitter_s_ += (std::chrono::duration<double>(d).count() - jitter_s_) / 16.0;
}

}  // namespace hil::measure
