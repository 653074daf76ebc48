// Generic TOML reading shared by the profile and the farm file (detail/toml_reader.hpp).
#include "hil/profile/detail/toml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <utility>

namespace hil::profile::detail {
namespace {

// Edit distance, for "did you mean" hints on misspelt keys.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

std::string_view type_phrase(toml::node_type type) {
  switch (type) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

toml::table parse_toml(std::string_view text, std::string_view source, std::string_view kind) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& error) {
    throw profile_error(std::string(source),
                        {{"(syntax)", static_cast<int>(error.source().begin.line),
                          std::string(error.description())}},
                        kind);
  }
}

std::optional<std::string> read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.is_open() || in.bad()) return std::nullopt;
  return text;
}

std::string unknown_message(bool is_table, std::string_view path, std::string_view name,
                            std::span<const std::string_view> known) {
  std::string names;
  std::string_view closest;
  std::size_t closest_distance = 3;  // suggest only near misses
  for (const std::string_view candidate : known) {
    names += fmt::format("{}{}", names.empty() ? "" : ", ", candidate);
    if (const std::size_t d = edit_distance(name, candidate); d < closest_distance) {
      closest = candidate;
      closest_distance = d;
    }
  }
  return fmt::format(
      "unknown {}; known {}: {}{}", is_table ? "table" : "key",
      path.empty() ? std::string("tables") : fmt::format("keys in [{}]", path), names,
      closest.empty() ? std::string() : fmt::format(" (did you mean \"{}\"?)", closest));
}

void pass_state::report(std::string key, int line, std::string message) {
  problems_.push_back({std::move(key), line, std::move(message)});
}

int pass_state::line_of(std::string_view key) const {
  const auto found = lines_.find(key);
  return found == lines_.end() ? 0 : found->second;
}

bool pass_state::rejected(std::string_view key) const {
  return std::any_of(problems_.begin(), problems_.end(),
                     [key](const problem& p) { return p.key == key; });
}

bool pass_state::rejected_in(std::string_view key) const {
  return std::any_of(problems_.begin(), problems_.end(), [key](const problem& p) {
    return p.key == key || (p.key.size() > key.size() && p.key.compare(0, key.size(), key) == 0 &&
                            p.key[key.size()] == '[');
  });
}

std::vector<problem> pass_state::sorted_problems() const {
  std::vector<problem> sorted = problems_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const problem& a, const problem& b) {
    return std::pair(a.line == 0, a.line) < std::pair(b.line == 0, b.line);
  });
  return sorted;
}

void value_reader::wrong_type(std::string_view expected) const {
  fail(fmt::format("expected {}, got {}", expected, type_phrase(node_.type())));
}

std::optional<std::string> value_reader::string() const {
  const auto* value = expect(node_.as_string(), "a string");
  return value != nullptr ? std::optional(value->get()) : std::nullopt;
}

std::optional<bool> value_reader::boolean() const {
  const auto* value = expect(node_.as_boolean(), "a boolean (true or false)");
  return value != nullptr ? std::optional(value->get()) : std::nullopt;
}

std::optional<std::int64_t> value_reader::integer(std::int64_t low, std::int64_t high) const {
  const auto* value = expect(node_.as_integer(), "an integer");
  if (value == nullptr) return std::nullopt;
  if (value->get() < low || value->get() > high) {
    fail(fmt::format("must be between {} and {}, got {}", low, high, value->get()));
    return std::nullopt;
  }
  return value->get();
}

std::optional<double> value_reader::number() const {
  if (const auto* i = node_.as_integer()) return static_cast<double>(i->get());
  if (const auto* f = node_.as_floating_point()) return f->get();
  fail(fmt::format("expected a number, got {}", type_phrase(node_.type())));
  return std::nullopt;
}

std::optional<double> value_reader::positive_number(std::optional<double> high) const {
  std::optional<double> value = number();
  if (value && (!std::isfinite(*value) || *value <= 0.0 || (high && *value > *high))) {
    fail(high ? fmt::format("must be greater than 0 and at most {}, got {}", *high, *value)
              : fmt::format("must be greater than 0, got {}", *value));
    value.reset();
  }
  return value;
}

std::optional<double> value_reader::optional_limit() const {
  std::optional<double> value = number();
  if (value && (!std::isfinite(*value) || *value < 0.0)) {
    fail(fmt::format("must be 0 (not checked) or more, got {}", *value));
    value.reset();
  }
  return value;
}

std::optional<std::string> value_reader::string_where(bool (*is_valid)(std::string_view),
                                                      std::string_view rule) const {
  std::optional<std::string> text = string();
  if (text && !is_valid(*text)) {
    fail(fmt::format("must be {}, got \"{}\"", rule, *text));
    text.reset();
  }
  return text;
}

std::optional<std::size_t> value_reader::choice(std::span<const std::string_view> names) const {
  const std::optional<std::string> text = string();
  if (!text) return std::nullopt;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == *text) return i;
  }
  std::string listed;
  for (const std::string_view name : names) {
    listed += fmt::format("{}\"{}\"", listed.empty() ? "" : ", ", name);
  }
  fail(fmt::format("must be one of {}; got \"{}\"", listed, *text));
  return std::nullopt;
}

}  // namespace hil::profile::detail
