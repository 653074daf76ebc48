// An address in CIDR notation ("198.18.0.10/24", "2001:2::10/64") split into its address and its
// prefix: the one place a profile's or a bench's address loses or keeps its prefix length.
#pragma once

#include <string>
#include <string_view>

namespace hil::sys {

// "198.18.0.10/24" -> "198.18.0.10"; an address without a prefix as it is.
[[nodiscard]] inline std::string without_prefix(std::string_view cidr) {
  return std::string(cidr.substr(0, cidr.find('/')));
}

// "198.18.0.10/24" -> "/24"; "" for an address without a prefix.
[[nodiscard]] inline std::string prefix_of(std::string_view cidr) {
  const auto slash = cidr.find('/');
  return slash == std::string_view::npos ? std::string() : std::string(cidr.substr(slash));
}

}  // namespace hil::sys
