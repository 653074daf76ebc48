// Generic TOML reading shared by the profile and the farm file: the parse with its syntax error as
// a problem, one validation pass that collects every problem with its dotted key and line, and
// typed reads of one value that turn every misfit into such a problem.
//
// A private header of the profile layer (its public headers may not use toml++): only the
// layer's sources include it.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hil/profile/profile.hpp"

namespace hil::profile::detail {

// The 1-based line a value starts on.
int line_of(const toml::node& node);

// "a string", "an integer", ... for wrong-type messages.
std::string_view type_phrase(toml::node_type type);

// The TOML document, or a profile_error of kind ("profile", "farm") carrying the syntax error.
toml::table parse_toml(std::string_view text, std::string_view source, std::string_view kind);

// The file's bytes, or nullopt when it cannot be opened or read.
std::optional<std::string> read_text(const std::filesystem::path& file);

// "unknown key; known keys in [dut]: interface, ipv4, ipv6 (did you mean "ipv4"?)"; is_table says
// whether the unknown name holds a table, path is its table's dotted name ("" for the root).
std::string unknown_message(bool is_table, std::string_view path, std::string_view name,
                            std::span<const std::string_view> known);

// Everything one validation pass learns: the problems, and where each known key was.
class pass_state {
 public:
  // Records a problem; line is 0 when the key is missing.
  void report(std::string key, int line, std::string message);
  // Notes that a known key was present at line, whatever its value.
  void mark_seen(const std::string& key, int line) { lines_[key] = line; }
  // True when the key was present in the text.
  [[nodiscard]] bool seen(std::string_view key) const { return lines_.find(key) != lines_.end(); }
  // The key's source line, 0 when it was absent.
  [[nodiscard]] int line_of(std::string_view key) const;
  // True when a problem was already reported for the key.
  [[nodiscard]] bool rejected(std::string_view key) const;
  // True when a problem was reported for the key or for an element of it (key[i]).
  [[nodiscard]] bool rejected_in(std::string_view key) const;
  // True when the key was present and its value accepted.
  [[nodiscard]] bool valid(std::string_view key) const { return seen(key) && !rejected(key); }
  // The problems in source-line order, line-less ones (missing keys, environment) last.
  [[nodiscard]] std::vector<problem> sorted_problems() const;

 private:
  std::vector<problem> problems_;                  // in the order found
  std::map<std::string, int, std::less<>> lines_;  // known key -> its line
};

// One TOML value being read into a field; every misfit becomes a problem with the value's dotted
// key and line, and the read returns nothing so the field keeps its default.
class value_reader {
 public:
  value_reader(const toml::node& node, std::string key, pass_state& state)
      : node_(node), key_(std::move(key)), state_(state) {}

  [[nodiscard]] const std::string& key() const { return key_; }
  [[nodiscard]] pass_state& state() const { return state_; }
  [[nodiscard]] const toml::node& node() const { return node_; }
  // Reports message as a problem of this value.
  void fail(std::string message) const { state_.report(key_, line_of(node_), std::move(message)); }
  // The table, or nullptr after reporting the wrong type.
  [[nodiscard]] const toml::table* table() const { return expect(node_.as_table(), "a table"); }
  // The array, or nullptr after reporting the wrong type.
  [[nodiscard]] const toml::array* array() const { return expect(node_.as_array(), "an array"); }
  // A string of any content.
  [[nodiscard]] std::optional<std::string> string() const;
  // true or false.
  [[nodiscard]] std::optional<bool> boolean() const;
  // An integer in [low, high].
  [[nodiscard]] std::optional<std::int64_t> integer(std::int64_t low, std::int64_t high) const;
  // An integer or float greater than 0 and, when high is given, at most high.
  [[nodiscard]] std::optional<double> positive_number(std::optional<double> high = {}) const;
  // An integer or float of at least 0 (0 = no limit).
  [[nodiscard]] std::optional<double> optional_limit() const;
  // A string for which is_valid holds; rule says what a valid one looks like.
  [[nodiscard]] std::optional<std::string> string_where(bool (*is_valid)(std::string_view),
                                                        std::string_view rule) const;
  // The index in names of the string given, after reporting any other string.
  [[nodiscard]] std::optional<std::size_t> choice(std::span<const std::string_view> names) const;

 private:
  template <class Typed>
  Typed* expect(Typed* typed, std::string_view expected) const {
    if (typed == nullptr) wrong_type(expected);
    return typed;
  }
  void wrong_type(std::string_view expected) const;
  // The value as a double when it is an integer or a float, else nullopt after reporting it.
  [[nodiscard]] std::optional<double> number() const;

  const toml::node& node_;
  std::string key_;
  pass_state& state_;
};

}  // namespace hil::profile::detail
