// Board profile: namespace names, the error type and profile selection. Every key is declared once,
// in the key table (detail/profile_keys.cpp); loading is in profile_load.cpp, the checks across
// keys in detail/profile_checks.cpp, the echo in profile_echo.cpp, the reference in
// profile_reference.cpp.
#include "hil/profile/profile.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <utility>

namespace hil::profile {
namespace {

// "<source>:<line>" or just "<source>" when the problem has no line (a missing key).
std::string location(std::string_view source, int line) {
  return line > 0 ? fmt::format("{}:{}", source, line) : std::string(source);
}

// The what() text: a header line, then one line per problem.
std::string describe(std::string_view kind, std::string_view source,
                     const std::vector<problem>& problems) {
  std::string text = fmt::format("{} {} has {} problem(s):", kind, source, problems.size());
  for (const problem& p : problems) {
    text += fmt::format("\n  {}: {}: {}", location(source, p.line), p.key, p.message);
  }
  return text;
}

}  // namespace

std::string profile::dut_netns() const {
  return peer.mode == peer_mode::sim ? "hilperf-" + sim.bench + "-dut" : std::string();
}

std::string profile::peer_netns() const {
  return peer.mode == peer_mode::sim ? "hilperf-" + sim.bench + "-peer" : std::string();
}

double rfc2544_config::min_percent_for(int frame_bytes) const {
  for (const auto& [frame, percent] : min_percent_by_frame) {
    if (frame == frame_bytes) return percent;
  }
  return min_percent;
}

int profile::rfc2544_line_mbps() const {
  if (rfc2544.line_mbps > 0) return rfc2544.line_mbps;
  if (peer.mode == peer_mode::sim) {
    return sim.frame_port_mbit > 0 ? sim.frame_port_mbit : sim.shape_mbit;
  }
  return link.speed_mbps;
}

// The base is built from the arguments before problems_ takes ownership of them.
profile_error::profile_error(std::string source, std::vector<problem> problems,
                             std::string_view kind)
    : std::runtime_error(describe(kind, source, problems)), problems_(std::move(problems)) {}

std::filesystem::path select_profile(const std::optional<std::string>& flag,
                                     const std::filesystem::path& fallback) {
  if (flag && !flag->empty()) {
    return *flag;
  }
  if (const char* from_env = std::getenv("HILPERF_PROFILE");
      from_env != nullptr && *from_env != '\0') {
    return from_env;
  }
  return fallback;
}

}  // namespace hil::profile
