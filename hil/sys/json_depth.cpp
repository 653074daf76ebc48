#include "hil/sys/json_depth.hpp"

namespace hil::sys {

std::size_t json_nesting_depth(std::string_view text, std::size_t limit) noexcept {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  json_string_scan strings;
  for (const char c : text) {
    if (strings.in_string(c)) continue;
    switch (c) {
      case '[':
      case '{':
        if (++depth > deepest) {
          deepest = depth;
          if (deepest > limit) return limit + 1;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return deepest;
}

}  // namespace hil::sys
