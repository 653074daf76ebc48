// The figures of each kind as JSON and back, for record_json.cpp. Internal to hil/record.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "hil/record/case_record.hpp"

namespace hil::record::detail {

// x rounded to `decimals` places: every figure is rounded here, once.
[[nodiscard]] double rounded(double x, int decimals);

// The "figures" object of f (an empty object for std::monostate).
[[nodiscard]] nlohmann::json figures_to_json(const figures& f);

// The figures of kind read from j ("figures"); j may be null for kind "none". Throws
// record_error for an unknown kind or a field of the wrong type.
[[nodiscard]] figures figures_from_json(std::string_view kind, const nlohmann::json* j);

// A latency distribution: {"count","min_us","mean_us","p50_us","p90_us","p99_us","p999_us",
// "max_us","cdf":[[us, fraction], …]}.
[[nodiscard]] nlohmann::json latency_to_json(const latency_distribution& d);
[[nodiscard]] latency_distribution latency_from_json(const nlohmann::json& j,
                                                     const std::string& path);

}  // namespace hil::record::detail
