#include "hil/measure/pacing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace hil::measure {

namespace {

// k · bytes · 8 · 10⁹ needs up to 64 + 65 bits; GCC and Clang provide a 128-bit integer on every
// 64-bit target we build for (__extension__ keeps -Wpedantic quiet about it).
__extension__ typedef unsigned __int128 uint128;  // NOLINT(modernize-use-using)

static_assert(std::is_same_v<std::chrono::steady_clock::duration, std::chrono::nanoseconds>,
              "pacer assumes steady_clock counts nanoseconds");

using time_point = pacer::time_point;
constexpr std::uint64_t max_datagram_bytes = std::uint64_t{1} << 31;
constexpr std::int64_t max_ns = std::numeric_limits<std::int64_t>::max();

// start + offset_ns, or time_point::max() when that is beyond the clock's range.
time_point saturating_add(time_point start, uint128 offset_ns) {
  const std::int64_t s = start.time_since_epoch().count();
  // max_ns − s, computed without overflow for a start before the clock's epoch.
  const uint128 headroom = s >= 0
                               ? static_cast<uint128>(max_ns - s)
                               : static_cast<uint128>(max_ns) + static_cast<uint128>(-(s + 1)) + 1;
  if (offset_ns > headroom) return time_point::max();
  // Two steps: an offset above max_ns is in range only for a start before the epoch.
  const uint128 first = std::min(offset_ns, static_cast<uint128>(max_ns));
  return start + std::chrono::nanoseconds(static_cast<std::int64_t>(first)) +
         std::chrono::nanoseconds(static_cast<std::int64_t>(offset_ns - first));
}

std::uint64_t saturate_u64(uint128 v) {
  constexpr auto max = std::numeric_limits<std::uint64_t>::max();
  return v > max ? max : static_cast<std::uint64_t>(v);
}

std::chrono::nanoseconds catchup_spacing_for(std::uint64_t bit_ns, std::uint64_t rate,
                                             double factor) {
  // ⌈T / factor⌉ so catching up never exceeds factor × the rate.
  const double spacing =
      std::ceil(static_cast<double>(bit_ns) / (static_cast<double>(rate) * factor));
  if (spacing >= static_cast<double>(max_ns)) return std::chrono::nanoseconds(max_ns);
  return std::chrono::nanoseconds(static_cast<std::int64_t>(spacing));
}

void validate(std::uint64_t bits_per_second, std::size_t bytes, double catchup_factor) {
  if (bits_per_second == 0) throw std::invalid_argument("pacer: bits_per_second must be > 0");
  if (bytes == 0 || bytes > max_datagram_bytes) {
    throw std::invalid_argument("pacer: bytes_per_datagram must be in 1…2^31, got " +
                                std::to_string(bytes));
  }
  // Written so that NaN fails too.
  if (!(catchup_factor >= 1.0)) {
    throw std::invalid_argument("pacer: catchup_factor must be >= 1 (1 = never catch up), got " +
                                std::to_string(catchup_factor));
  }
}

}  // namespace

pacer::pacer(std::uint64_t bits_per_second, std::size_t bytes_per_datagram, time_point start,
             double catchup_factor)
    : bits_per_second_(bits_per_second),
      bit_ns_per_datagram_(0),
      start_(start),
      catchup_spacing_(0) {
  validate(bits_per_second, bytes_per_datagram, catchup_factor);
  bit_ns_per_datagram_ = static_cast<std::uint64_t>(bytes_per_datagram) * 8U * 1'000'000'000U;
  catchup_spacing_ = catchup_spacing_for(bit_ns_per_datagram_, bits_per_second_, catchup_factor);
}

pacer::time_point pacer::ideal(std::uint64_t k) const {
  // One exact product and one division per call: the error is below 1 ns for every k, so there
  // is no accumulated drift however long the stream runs.
  return saturating_add(start_, uint128{k} * bit_ns_per_datagram_ / bits_per_second_);
}

pacer::time_point pacer::next_due(std::uint64_t k, time_point last_send) const {
  if (k == 0) return start_;
  const auto earliest = saturating_add(last_send, static_cast<uint128>(catchup_spacing_.count()));
  return std::max(ideal(k), earliest);
}

std::uint64_t pacer::due_by(time_point now) const {
  if (now < start_) return 0;
  // ideal(k) <= now  ⇔  ⌊k·B/R⌋ <= e  ⇔  k·B < (e+1)·R  ⇔  k < ⌈(e+1)·R / B⌉,
  // with e = now − start in ns, B = bit_ns_per_datagram_, R = bits_per_second_.
  const auto e = static_cast<uint128>((now - start_).count());
  const uint128 scaled = (e + 1) * bits_per_second_;
  return saturate_u64((scaled + bit_ns_per_datagram_ - 1) / bit_ns_per_datagram_);
}

std::uint64_t pacer::ideal_count(std::chrono::nanoseconds duration) const {
  if (duration.count() <= 0) return 0;
  const auto d = static_cast<uint128>(duration.count());
  return saturate_u64(d * bits_per_second_ / bit_ns_per_datagram_);
}

double pacer::datagrams_per_second() const {
  return static_cast<double>(bits_per_second_) * 1e9 / static_cast<double>(bit_ns_per_datagram_);
}

}  // namespace hil::measure
