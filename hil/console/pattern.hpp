// What a console case waits for: a literal (matched byte for byte: `w61/>`, `iperf exit`, a
// firmware's `[ ID]` header, whose brackets mean nothing) or a regular expression (ECMAScript,
// for a result line's figures), said explicitly at each use. A string silently taken as a regex is
// the classic trap of console automation: `[ATSS]:ATS` is a character class and never matches.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace hil::console {

// Where a pattern matched: its offset and length in the text searched, and a regex's groups
// (group 1 first; an unmatched optional group is empty).
struct found {
  std::size_t position = 0;
  std::size_t length = 0;
  std::vector<std::string> groups;
};

class pattern {
 public:
  // Matches text exactly; throws std::invalid_argument when it is empty.
  static pattern literal(std::string text);
  // Matches the ECMAScript expression, within one search (patterns do not span what is not yet
  // received); throws std::invalid_argument naming it when it is empty or does not compile.
  static pattern regex(std::string expression);

  // The first match in text; nullopt when there is none.
  [[nodiscard]] std::optional<found> find(std::string_view text) const;

  // "literal \"w61/>\"" or "regex /…/", for messages that say what was awaited.
  [[nodiscard]] std::string describe() const;

 private:
  pattern(std::string text, std::shared_ptr<const std::regex> compiled);

  std::string text_;
  std::shared_ptr<const std::regex> regex_;  // null for a literal
};

}  // namespace hil::console
