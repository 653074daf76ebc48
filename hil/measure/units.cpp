#include "hil/measure/units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace hil::measure {
namespace {

// Parses "<number>[suffix]" with the given base (1000 or 1024).
std::optional<std::uint64_t> parse_with(std::string_view text, double base) {
  if (text.empty()) return std::nullopt;
  double scale = 1;
  switch (std::tolower(static_cast<unsigned char>(text.back()))) {
    case 'k':
      scale = base;
      break;
    case 'm':
      scale = base * base;
      break;
    case 'g':
      scale = base * base * base;
      break;
    case 't':
      scale = base * base * base * base;
      break;
    default:
      break;
  }
  if (scale != 1) text.remove_suffix(1);
  const std::string number(text);
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(value) ||
      value < 0) {
    return std::nullopt;
  }
  const double result = value * scale;
  if (result > 1.8e19) return std::nullopt;
  return static_cast<std::uint64_t>(std::llround(result));
}

}  // namespace

std::optional<std::uint64_t> parse_rate(std::string_view text) { return parse_with(text, 1000.0); }

std::optional<std::uint64_t> parse_size(std::string_view text) { return parse_with(text, 1024.0); }

}  // namespace hil::measure
