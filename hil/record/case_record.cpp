#include "hil/record/case_record.hpp"

namespace hil::record {
namespace {

// Each alternative's kind name; the overloads are picked by std::visit.
constexpr std::string_view name_of(const std::monostate& /*none*/) { return "none"; }
constexpr std::string_view name_of(const throughput_figures& /*f*/) { return "throughput"; }
constexpr std::string_view name_of(const retransmit_figures& /*f*/) { return "retransmits"; }
constexpr std::string_view name_of(const udp_tier_figures& /*f*/) { return "udp_tier"; }
constexpr std::string_view name_of(const datagram_count_figures& /*f*/) {
  return "datagram_counts";
}
constexpr std::string_view name_of(const netperf_figures& /*f*/) { return "netperf"; }
constexpr std::string_view name_of(const latency_under_load_figures& /*f*/) {
  return "latency_under_load";
}
constexpr std::string_view name_of(const icmp_latency_figures& /*f*/) { return "icmp_latency"; }
constexpr std::string_view name_of(const link_figures& /*f*/) { return "link"; }
constexpr std::string_view name_of(const frame_throughput_figures& /*f*/) {
  return "rfc2544_throughput";
}
constexpr std::string_view name_of(const frame_loss_figures& /*f*/) { return "rfc2544_frame_loss"; }
constexpr std::string_view name_of(const back_to_back_figures& /*f*/) {
  return "rfc2544_back_to_back";
}
constexpr std::string_view name_of(const frame_latency_figures& /*f*/) { return "rfc2544_latency"; }
constexpr std::string_view name_of(const y1564_figures& /*f*/) { return "y1564"; }

}  // namespace

std::string_view kind_name(const figures& f) {
  return std::visit([](const auto& alternative) { return name_of(alternative); }, f);
}

std::optional<double> verdict_record::margin() const {
  return measure::margin_of(observed_value, limit_value, bound);
}

int case_record::attempt_count() const {
  return attempts.empty() ? 1 : static_cast<int>(attempts.size());
}

std::optional<double> case_record::cpu_pressure_percent() const {
  if (attempts.empty()) return std::nullopt;
  return attempts.back().cpu_pressure_percent;
}

std::optional<double> case_record::other_cpu_percent() const {
  if (attempts.empty()) return std::nullopt;
  return attempts.back().other_cpu_percent;
}

}  // namespace hil::record
