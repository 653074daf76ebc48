// Bucket arithmetic for latency_histogram. A duration is first rounded UP to whole units of
// 100 ns (a tenth of a microsecond), u = ceil(ns / 100), so every bucket's upper edge is >= every
// sample in it (a percentile never under-reports, and over-reports by less than 0.1 µs below
// 102.4 µs):
//
//   index            holds u                              upper edge (units of 0.1 µs)
//   0 .. 1023        u = index                            index
//   1024 + 512·o + j u in [2^k + j·w, 2^k + (j+1)·w),     2^k + (j+1)·w − 1
//                    k = o + 10, w = 2^(k−9)
//   last (16383)     also every u >= 2^40 (clamped)       max(): open-ended
//
// 1024 + 30·512 = 16384 buckets of 8 bytes = 128 KiB per histogram.
#include "hil/measure/latency_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace hil::measure {

namespace {

constexpr std::int64_t unit_ns = 100;         // one unit: a tenth of a microsecond
constexpr std::uint64_t linear_limit = 1024;  // (units) one bucket per unit below this
constexpr int linear_bits = 10;               // log2(linear_limit)
constexpr int sub_bucket_bits = 9;            // 512 sub-buckets per power of two
constexpr std::uint64_t sub_buckets = std::uint64_t{1} << sub_bucket_bits;
constexpr int top_bits = 40;  // values >= 2^40 units (30 hours) clamp into the last bucket
constexpr std::size_t last_bucket = latency_histogram::bucket_count - 1;
static_assert(latency_histogram::bucket_count ==
              linear_limit + (top_bits - linear_bits) * sub_buckets);

// ceil(ns / unit_ns) for a non-negative duration, without overflow near the int64 limit.
std::uint64_t ceil_units(std::int64_t ns) noexcept {
  const auto u = static_cast<std::uint64_t>(std::max<std::int64_t>(ns, 0));
  const auto unit = static_cast<std::uint64_t>(unit_ns);
  return u / unit + (u % unit != 0 ? 1 : 0);
}

// The bucket holding u units.
std::size_t bucket_of(std::uint64_t u) noexcept {
  if (u < linear_limit) return static_cast<std::size_t>(u);
  const int k = std::bit_width(u) - 1;  // u in [2^k, 2^(k+1))
  if (k >= top_bits) return last_bucket;
  const std::uint64_t j = (u - (std::uint64_t{1} << k)) >> (k - sub_bucket_bits);
  return static_cast<std::size_t>(linear_limit + (k - linear_bits) * sub_buckets + j);
}

// The largest whole-unit value bucket i holds (not meaningful for the last bucket).
std::uint64_t upper_edge_units(std::size_t i) noexcept {
  if (i < linear_limit) return i;
  const std::uint64_t o = (i - linear_limit) / sub_buckets;
  const std::uint64_t j = (i - linear_limit) % sub_buckets;
  const int k = static_cast<int>(o) + linear_bits;
  const std::uint64_t w = std::uint64_t{1} << (k - sub_bucket_bits);
  return (std::uint64_t{1} << k) + (j + 1) * w - 1;
}

// The value reported for non-empty bucket i: its upper edge in ns, clamped to the exact extremes
// recorded; the clamped last bucket has no finite edge, so it reports the exact maximum.
std::int64_t reported_ns(std::size_t i, std::int64_t min_ns, std::int64_t max_ns) noexcept {
  if (i == last_bucket) return max_ns;
  const std::uint64_t edge_ns = upper_edge_units(i) * unit_ns;  // < 2^40 · 100, fits in int64
  return std::clamp(static_cast<std::int64_t>(edge_ns), min_ns, max_ns);
}

}  // namespace

latency_histogram::latency_histogram() : buckets_(bucket_count, 0) {}

void latency_histogram::record(std::chrono::nanoseconds d) noexcept {
  const std::int64_t ns = std::max<std::int64_t>(d.count(), 0);
  ++buckets_[bucket_of(ceil_units(ns))];
  if (count_ == 0 || ns < min_ns_) min_ns_ = ns;
  if (count_ == 0 || ns > max_ns_) max_ns_ = ns;
  ++count_;
  sum_ns_ += static_cast<long double>(ns);
}

void latency_histogram::merge(const latency_histogram& other) noexcept {
  if (other.count_ == 0) return;
  for (std::size_t i = 0; i < bucket_count; ++i) buckets_[i] += other.buckets_[i];
  min_ns_ = count_ == 0 ? other.min_ns_ : std::min(min_ns_, other.min_ns_);
  max_ns_ = count_ == 0 ? other.max_ns_ : std::max(max_ns_, other.max_ns_);
  count_ += other.count_;
  sum_ns_ += other.sum_ns_;
}

void latency_histogram::clear() noexcept {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  count_ = 0;
  min_ns_ = 0;
  max_ns_ = 0;
  sum_ns_ = 0;
}

std::chrono::nanoseconds latency_histogram::min() const noexcept {
  return std::chrono::nanoseconds{min_ns_};
}

std::chrono::nanoseconds latency_histogram::max() const noexcept {
  return std::chrono::nanoseconds{max_ns_};
}

double latency_histogram::mean_us() const noexcept {
  if (count_ == 0) return 0.0;
  return static_cast<double>(sum_ns_ / static_cast<long double>(count_) / 1000.0L);
}

std::chrono::nanoseconds latency_histogram::percentile(double q) const {
  if (!(q >= 0.0 && q <= 1.0)) {  // also rejects NaN
    throw std::invalid_argument("latency_histogram::percentile: quantile must lie in [0, 1]");
  }
  if (count_ == 0) return std::chrono::nanoseconds{0};
  if (q == 0.0) return min();
  // The rank ceil(q·count), forgiving the last-bit error of q·count (0.99 · 10000 must be 9900,
  // not 9901), and at least 1 so that a tiny q selects the first sample.
  const double rank = q * static_cast<double>(count_);
  const double wanted = std::ceil(rank - rank * 4 * std::numeric_limits<double>::epsilon());
  const auto target = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(wanted), 1, count_);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < bucket_count; ++i) {
    cumulative += buckets_[i];
    if (cumulative >= target) return std::chrono::nanoseconds{reported_ns(i, min_ns_, max_ns_)};
  }
  return max();  // unreachable: the buckets sum to count_
}

latency_summary latency_histogram::summarize() const {
  const auto us = [](std::chrono::nanoseconds d) { return static_cast<double>(d.count()) / 1e3; };
  latency_summary s;
  s.count = count_;
  if (count_ == 0) return s;
  s.min_us = us(min());
  s.mean_us = mean_us();
  s.p50_us = us(percentile(0.50));
  s.p90_us = us(percentile(0.90));
  s.p99_us = us(percentile(0.99));
  s.p999_us = us(percentile(0.999));
  s.max_us = us(max());
  return s;
}

std::vector<std::pair<double, double>> latency_histogram::cdf(std::size_t max_points) const {
  std::vector<std::pair<double, double>> all;
  if (count_ == 0 || max_points == 0) return all;
  const auto total = static_cast<double>(count_);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < bucket_count; ++i) {
    if (buckets_[i] == 0) continue;
    cumulative += buckets_[i];
    const double x_us = static_cast<double>(reported_ns(i, min_ns_, max_ns_)) / 1e3;
    // The last non-empty bucket gives exactly 1.0 (cumulative == count_).
    all.emplace_back(x_us, static_cast<double>(cumulative) / total);
  }
  if (all.size() <= max_points) return all;
  // Keep points ⌊(i+1)·m/p⌋ − 1 for i < p: evenly spread, strictly increasing (m/p > 1), and the
  // last one is m − 1, so the curve still ends at (max, 1.0).
  std::vector<std::pair<double, double>> thinned;
  thinned.reserve(max_points);
  const std::size_t m = all.size();
  for (std::size_t i = 0; i < max_points; ++i) thinned.push_back(all[(i + 1) * m / max_points - 1]);
  return thinned;
}

}  // namespace hil::measure
