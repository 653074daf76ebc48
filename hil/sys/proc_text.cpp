#include "hil/sys/proc_text.hpp"

#include <charconv>

namespace hil::sys {

std::optional<std::uint64_t> leading_number(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  return v;
}

}  // namespace hil::sys
