#include "hil/measure/pacing.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace hil::measure {

namespace {

static_assert(std::is_same_v<std::chrono::steady_clock::duration, std::chrono::nanoseconds>,
              "pacer assumes steady_clock counts nanoseconds");

using time_point = pacer::time_point;
constexpr std::uint64_t max_datagram_bytes = std::uint64_t{1} << 31;
constexpr std::int64_t largest_ns = std::numeric_limits<std::int64_t>::max();
constexpr std::uint64_t max_u64 = std::numeric_limits<std::uint64_t>::max();

// k · bytes · 8 · 10⁹ needs up to 64 + 65 bits, and 32-bit targets (armhf) have no 128-bit
// integer type, so the few operations needed on such products are written with 64-bit halves.
struct u128 {
  std::uint64_t hi;
  std::uint64_t lo;
};

// The full product a · b: schoolbook multiplication in base 2³².
u128 multiply(std::uint64_t a, std::uint64_t b) {
  constexpr std::uint64_t mask = 0xFFFF'FFFF;
  const std::uint64_t ll = (a & mask) * (b & mask);
  const std::uint64_t lh = (a & mask) * (b >> 32);
  const std::uint64_t hl = (a >> 32) * (b & mask);
  const std::uint64_t hh = (a >> 32) * (b >> 32);
  // The middle column: three terms below 2³² each, so no carry is lost.
  const std::uint64_t mid = (ll >> 32) + (lh & mask) + (hl & mask);
  return {hh + (lh >> 32) + (hl >> 32) + (mid >> 32), (mid << 32) | (ll & mask)};
}

// One base-2³² digit of a long division by a normalised divisor d (top bit set, d = d1·2³² + d0):
// the quotient digit of top·2³² + next (next < 2³²), given that it is below 2³² (Knuth's
// algorithm D step D3: estimate from the leading digits, then correct it by at most 2).
std::uint64_t quotient_digit(std::uint64_t top, std::uint64_t next, std::uint64_t d) {
  constexpr std::uint64_t base = std::uint64_t{1} << 32;
  const std::uint64_t d1 = d >> 32;
  const std::uint64_t d0 = d & (base - 1);
  std::uint64_t q = top / d1;
  std::uint64_t r = top - q * d1;
  while (q >= base || q * d0 > ((r << 32) | next)) {
    --q;
    r += d1;
    if (r >= base) break;
  }
  return q;
}

struct division {
  std::uint64_t quotient;
  std::uint64_t remainder;
};

// ⌊n / d⌋ and n mod d, exactly, for d > 0 and n.hi < d (so the quotient fits in 64 bits): two
// digits of long division in base 2³² (Hacker's Delight, divlu).
division divide(u128 n, std::uint64_t d) {
  // Normalise so d's top bit is set; n shifts along (its top bits are 0 since n.hi < d).
  const int shift = std::countl_zero(d);
  d <<= shift;
  const std::uint64_t n32 = shift == 0 ? n.hi : (n.hi << shift) | (n.lo >> (64 - shift));
  const std::uint64_t n10 = n.lo << shift;
  const std::uint64_t q1 = quotient_digit(n32, n10 >> 32, d);
  // The partial remainder is below d, so computing it modulo 2⁶⁴ is exact.
  const std::uint64_t n21 = ((n32 << 32) | (n10 >> 32)) - q1 * d;
  const std::uint64_t q0 = quotient_digit(n21, n10 & 0xFFFF'FFFF, d);
  const std::uint64_t r = ((n21 << 32) | (n10 & 0xFFFF'FFFF)) - q0 * d;
  return {(q1 << 32) | q0, r >> shift};
}

// ⌊a · b / c⌋ for c > 0, or UINT64_MAX when that is beyond 64 bits.
std::uint64_t mul_div_floor(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const u128 product = multiply(a, b);
  return product.hi >= c ? max_u64 : divide(product, c).quotient;
}

// ⌈a · b / c⌉ for c > 0, or UINT64_MAX when that is beyond 64 bits.
std::uint64_t mul_div_ceil(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const u128 product = multiply(a, b);
  if (product.hi >= c) return max_u64;
  const division d = divide(product, c);
  return d.remainder == 0 || d.quotient == max_u64 ? d.quotient : d.quotient + 1;
}

// start + offset_ns, or time_point::max() when that is beyond the clock's range. An offset of
// UINT64_MAX ns is beyond it from any start (or lands exactly on max()), so callers may saturate.
time_point saturating_add(time_point start, std::uint64_t offset_ns) {
  // Modulo 2⁶⁴: largest_ns − start is in 0…2⁶⁴−1 and, when the offset fits below it, start + offset
  // is in the clock's range, so both wrapped results are exact (C++20 converts modulo 2⁶⁴).
  const auto s = static_cast<std::uint64_t>(start.time_since_epoch().count());
  const std::uint64_t headroom = static_cast<std::uint64_t>(largest_ns) - s;
  if (offset_ns > headroom) return time_point::max();
  return time_point(std::chrono::nanoseconds(static_cast<std::int64_t>(s + offset_ns)));
}

std::chrono::nanoseconds catchup_spacing_for(std::uint64_t bit_ns, std::uint64_t rate,
                                             double factor) {
  // ⌈T / factor⌉ so catching up never exceeds factor × the rate.
  const double spacing =
      std::ceil(static_cast<double>(bit_ns) / (static_cast<double>(rate) * factor));
  if (spacing >= static_cast<double>(largest_ns)) return std::chrono::nanoseconds(largest_ns);
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
  return saturating_add(start_, mul_div_floor(k, bit_ns_per_datagram_, bits_per_second_));
}

pacer::time_point pacer::next_due(std::uint64_t k, time_point last_send) const {
  if (k == 0) return start_;
  const auto earliest =
      saturating_add(last_send, static_cast<std::uint64_t>(catchup_spacing_.count()));
  return std::max(ideal(k), earliest);
}

std::uint64_t pacer::due_in_batch(std::uint64_t k, time_point last_send, time_point now,
                                  std::uint64_t max) const {
  std::uint64_t n = 0;
  time_point due = next_due(k, last_send);
  while (n < max && due <= now) {
    ++n;
    due = next_due(k + n, due);
  }
  return n;
}

std::uint64_t pacer::due_by(time_point now) const {
  if (now < start_) return 0;
  // ideal(k) <= now  ⇔  ⌊k·B/R⌋ <= e  ⇔  k·B < (e+1)·R  ⇔  k < ⌈(e+1)·R / B⌉,
  // with e = now − start in ns, B = bit_ns_per_datagram_, R = bits_per_second_.
  const auto e = static_cast<std::uint64_t>((now - start_).count());
  return mul_div_ceil(e + 1, bits_per_second_, bit_ns_per_datagram_);
}

std::uint64_t pacer::ideal_count(std::chrono::nanoseconds duration) const {
  if (duration.count() <= 0) return 0;
  const auto d = static_cast<std::uint64_t>(duration.count());
  return mul_div_floor(d, bits_per_second_, bit_ns_per_datagram_);
}

double pacer::datagrams_per_second() const {
  return static_cast<double>(bits_per_second_) * 1e9 / static_cast<double>(bit_ns_per_datagram_);
}

}  // namespace hil::measure
