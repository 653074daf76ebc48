#include "hil/xdp/wire.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace hil::xdp {
namespace {

// 128-bit products: rate × window reaches 10¹² × 10⁹ before the bucket's 10⁹ scale.
__extension__ typedef unsigned __int128 u128;

std::uint64_t saturated(u128 v) {
  return v > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(v);
}

}  // namespace

std::uint64_t media_max_fps(std::uint64_t line_bps, std::uint64_t frame_bytes) {
  return line_bps / (8 * wire_bytes_of_frame(frame_bytes));
}

std::vector<std::string> problems(const port_setting& s) {
  std::vector<std::string> out;
  if (s.line_bps < min_line_bps || s.line_bps > max_line_bps) {
    out.push_back(fmt::format("line rate {} bit/s is outside {} … {} bit/s", s.line_bps,
                              min_line_bps, max_line_bps));
  }
  const std::uint64_t smallest = wire_bytes_of_frame(64);
  if (s.bucket_bytes < smallest) {
    out.push_back(fmt::format("bucket of {} bytes cannot pass one 64-byte frame ({} wire bytes)",
                              s.bucket_bytes, smallest));
  }
  if (s.bucket_bytes > max_bucket_bytes) {
    out.push_back(fmt::format("bucket of {} bytes is above the {} bytes the port emulation holds",
                              s.bucket_bytes, max_bucket_bytes));
  }
  return out;
}

port_config config_of(const port_setting& s) {
  const auto found = problems(s);
  if (!found.empty()) {
    throw std::invalid_argument(fmt::format("XDP port emulation: {}", fmt::join(found, "; ")));
  }
  port_config c;
  c.rate_bps = s.line_bps;
  c.bucket_bits = s.bucket_bytes * 8;
  return c;
}

std::uint64_t default_bucket_bytes(std::uint64_t line_bps) {
  const std::uint64_t four_ms = line_bps / 8 / 250;
  return std::clamp<std::uint64_t>(four_ms, 64 * wire_bytes_of_frame(1518), max_bucket_bytes);
}

bool bucket_balances(const port_config& c, const bucket_state& b, std::uint64_t passed_wire_bytes) {
  const u128 had = u128{c.bucket_bits} * ns_per_s + u128{c.rate_bps} * b.window_ns();
  const u128 went = u128{b.tokens} + u128{passed_wire_bytes} * 8 * ns_per_s +
                    u128{c.rate_bps} * b.full_ns + b.overflow_units;
  return had == went;
}

std::uint64_t thrown_away_bits(const port_config& c, const bucket_state& b) {
  return saturated((u128{c.rate_bps} * b.full_ns + b.overflow_units) / ns_per_s);
}

passed_bounds bounds_of(const port_config& c, const bucket_state& b, std::uint64_t xdp_bytes) {
  const u128 charge = charge_units(xdp_bytes);
  const u128 refill = u128{c.rate_bps} * b.window_ns();
  const u128 thrown = u128{c.rate_bps} * b.full_ns + b.overflow_units;
  passed_bounds out;
  const u128 most = u128{c.bucket_bits} * ns_per_s + refill;
  out.max_frames = most > thrown ? saturated((most - thrown) / charge) : 0;
  out.min_frames = refill > thrown ? saturated((refill - thrown) / charge) : 0;
  return out;
}

}  // namespace hil::xdp
