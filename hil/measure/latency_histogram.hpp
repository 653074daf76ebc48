// Latency histogram: per-transaction durations recorded in O(1) into a fixed set of buckets
// (bounded memory, no allocation after construction), read back as percentiles and a CDF.
//
//   bucket layout (log-linear, as HdrHistogram): values below 102.4 µs land in 0.1-µs buckets;
//   above, each power of two is split into 512 sub-buckets, so a percentile is within 0.1 µs or
//   0.2 % of the true value, whichever is larger, up to about 2^40 × 0.1 µs (30 hours).
//
// Pure code: no clocks, no sockets (docs/code-style.md rule 2). Not thread-safe: one writer per
// histogram; merge() combines per-thread histograms.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace hil::measure {

// The percentiles the reports print, in microseconds.
struct latency_summary {
  std::uint64_t count = 0;
  double min_us = 0;
  double mean_us = 0;
  double p50_us = 0;
  double p90_us = 0;
  double p99_us = 0;
  double p999_us = 0;
  double max_us = 0;
};

class latency_histogram {
 public:
  // Number of buckets (1024 linear + 30 · 512 log-linear): the whole memory is this many counters.
  static constexpr std::size_t bucket_count = 16384;

  latency_histogram();

  // Records one duration; negative durations count as 0. O(1), never allocates.
  void record(std::chrono::nanoseconds d) noexcept;
  // Adds every sample of other.
  void merge(const latency_histogram& other) noexcept;
  // Forgets every sample.
  void clear() noexcept;

  [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
  // Exact extremes and mean of what was recorded (0 when empty).
  [[nodiscard]] std::chrono::nanoseconds min() const noexcept;
  [[nodiscard]] std::chrono::nanoseconds max() const noexcept;
  [[nodiscard]] double mean_us() const noexcept;

  // The value at quantile q in [0, 1] (0.99 = p99): the smallest bucket value v such that at least
  // q·count samples are <= v, reported as the bucket's upper edge clamped to max(); 0 when empty.
  // Throws std::invalid_argument for q outside [0, 1].
  [[nodiscard]] std::chrono::nanoseconds percentile(double q) const;
  // count, min, mean, p50, p90, p99, p99.9 and max, in microseconds.
  [[nodiscard]] latency_summary summarize() const;
  // The cumulative distribution as (microseconds, fraction of samples <= it) points, increasing in
  // both, ending at (max, 1.0); at most max_points points (thinned evenly), empty when empty.
  [[nodiscard]] std::vector<std::pair<double, double>> cdf(std::size_t max_points = 200) const;

 private:
  std::vector<std::uint64_t> buckets_;  // fixed size, allocated once in the constructor
  std::uint64_t count_ = 0;
  std::int64_t min_ns_ = 0;
  std::int64_t max_ns_ = 0;
  long double sum_ns_ = 0;
};

}  // namespace hil::measure
