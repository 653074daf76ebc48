#include "hil/console/pattern.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

namespace hil::console {

pattern::pattern(std::string text, std::shared_ptr<const std::regex> compiled)
    : text_(std::move(text)), regex_(std::move(compiled)) {}

pattern pattern::literal(std::string text) {
  if (text.empty()) throw std::invalid_argument("a console pattern: an empty literal");
  return {std::move(text), nullptr};
}

pattern pattern::regex(std::string expression) {
  if (expression.empty()) throw std::invalid_argument("a console pattern: an empty regex");
  try {
    auto compiled = std::make_shared<const std::regex>(expression, std::regex::ECMAScript);
    return {std::move(expression), std::move(compiled)};
  } catch (const std::regex_error& e) {
    throw std::invalid_argument(fmt::format(
        "a console pattern: the regex /{}/ does not compile: {}", expression, e.what()));
  }
}

std::optional<found> pattern::find(std::string_view text) const {
  if (!regex_) {
    const auto at = text.find(text_);
    if (at == std::string_view::npos) return std::nullopt;
    return found{at, text_.size(), {}};
  }
  std::cmatch m;
  if (!std::regex_search(text.data(), text.data() + text.size(), m, *regex_)) return std::nullopt;
  found f{static_cast<std::size_t>(m.position(0)), static_cast<std::size_t>(m.length(0)), {}};
  for (std::size_t i = 1; i < m.size(); ++i) f.groups.push_back(m[i].str());
  return f;
}

std::string pattern::describe() const {
  return regex_ ? fmt::format("regex /{}/", text_) : fmt::format("literal \"{}\"", text_);
}

}  // namespace hil::console
