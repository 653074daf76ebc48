// The machinery of the profile key table (detail/profile_keys.cpp holds the table itself).
//
// Each key is declared once, as a key_def: its name, its rule (type and range), its unit, a line of
// documentation and the struct field it fills. From that one declaration come
//
//   read   TOML value ──(rule: wrong type, out of range, bad name → a problem)──> the field
//   write  the field ──> its TOML text (the echo at the start of every run; defaults included)
//   rows   name, type, default, range, unit, doc ──> the reference table in docs/profile.md
//
// A table_def binds one TOML table ("peer", "durations.quick") to the part of the profile its
// keys fill; the list of tables is in echo order, which is also the order of every listing.
//
// A private header of the profile layer (its public headers may not use toml++).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "hil/profile/detail/toml_reader.hpp"
#include "hil/profile/profile.hpp"

namespace hil::profile::detail {

// What a value must be; the reader, the echo and the reference all go by it.
enum class value_kind {
  text,        // any string (form, when given, is what the cross-key checks expect)
  name,        // a string accepts() holds for; form says what that is
  choice,      // one of names (an enum: names in the enum's order)
  integer,     // an integer in [low, high]
  positive,    // a number greater than 0, and at most high when high > 0
  limit,       // a number of at least 0; 0 leaves the check off
  below_100,   // a number from 0 up to, not including, 100 (a percentage of loss)
  boolean,     // true or false
  increasing,  // a non-empty array of integers in [low, high], strictly increasing; form: what
  distinct,    // a non-empty array of distinct names
  per_frame,   // a table of frame<bytes> = percent, bytes in [low, high], percent in (0, 100]
  texts,       // an array of strings, possibly empty; form: what they are
};

struct value_rule {
  value_kind kind = value_kind::text;
  double low = 0;   // integer, increasing, per_frame: the smallest allowed
  double high = 0;  // integer, increasing, per_frame: the largest; positive: the bound (0: none)
  std::span<const std::string_view> names{};    // choice, distinct: the allowed strings
  bool (*accepts)(std::string_view) = nullptr;  // name: the rule
  std::string_view form{};  // name, text: what a valid one is; increasing, distinct: the elements
  std::string_view when_empty{};  // increasing, distinct: the problem of an empty array
};

// The rules, by name, for the key table's declarations.
namespace rule {
constexpr value_rule text(std::string_view form = {}) {
  return {.kind = value_kind::text, .form = form};
}
constexpr value_rule name(bool (*accepts)(std::string_view), std::string_view form) {
  return {.kind = value_kind::name, .accepts = accepts, .form = form};
}
constexpr value_rule one_of(std::span<const std::string_view> names) {
  return {.kind = value_kind::choice, .names = names};
}
constexpr value_rule integer(std::int64_t low, std::int64_t high) {
  return {.kind = value_kind::integer,
          .low = static_cast<double>(low),
          .high = static_cast<double>(high)};
}
constexpr value_rule positive(double high = 0) {
  return {.kind = value_kind::positive, .high = high};
}
constexpr value_rule limit() { return {.kind = value_kind::limit}; }
constexpr value_rule below_100() { return {.kind = value_kind::below_100}; }
constexpr value_rule boolean() { return {.kind = value_kind::boolean}; }
constexpr value_rule increasing(std::int64_t low, std::int64_t high, std::string_view what,
                                std::string_view when_empty) {
  return {.kind = value_kind::increasing,
          .low = static_cast<double>(low),
          .high = static_cast<double>(high),
          .form = what,
          .when_empty = when_empty};
}
constexpr value_rule distinct(std::span<const std::string_view> names, std::string_view what,
                              std::string_view when_empty) {
  return {.kind = value_kind::distinct, .names = names, .form = what, .when_empty = when_empty};
}
constexpr value_rule texts(std::string_view form) {
  return {.kind = value_kind::texts, .form = form};
}
constexpr value_rule per_frame(std::int64_t low, std::int64_t high) {
  return {.kind = value_kind::per_frame,
          .low = static_cast<double>(low),
          .high = static_cast<double>(high)};
}
}  // namespace rule

using per_frame_list = std::vector<std::pair<int, double>>;

// The readers and writers behind the templates below (detail/key_table.cpp).
std::optional<std::string> read_string(const value_reader& r, const value_rule& rule);
std::optional<double> read_number(const value_reader& r, const value_rule& rule);
std::optional<std::vector<int>> read_increasing(const value_reader& r, const value_rule& rule);
std::optional<std::vector<std::size_t>> read_distinct(const value_reader& r,
                                                      const value_rule& rule);
std::optional<per_frame_list> read_per_frame(const value_reader& r, const value_rule& rule);
std::optional<std::vector<std::string>> read_texts(const value_reader& r);
std::string toml_string(std::string_view text);
std::string float_text(double value);
std::string list_text(const std::vector<int>& values);
std::string names_text(std::span<const std::string_view> names,
                       const std::vector<std::size_t>& indices);
std::string per_frame_text(const per_frame_list& values);
std::string texts_text(const std::vector<std::string>& values);

// The value of a field of type Field, read by its rule.
template <class Field>
std::optional<Field> read_as(const value_reader& r, const value_rule& rule) {
  if constexpr (std::is_same_v<Field, bool>) {
    return r.boolean();
  } else if constexpr (std::is_same_v<Field, std::string>) {
    return read_string(r, rule);
  } else if constexpr (std::is_enum_v<Field>) {
    const auto index = r.choice(rule.names);
    return index ? std::optional(static_cast<Field>(*index)) : std::nullopt;
  } else if constexpr (std::is_integral_v<Field>) {
    const auto value =
        r.integer(static_cast<std::int64_t>(rule.low), static_cast<std::int64_t>(rule.high));
    return value ? std::optional(static_cast<Field>(*value)) : std::nullopt;
  } else if constexpr (std::is_same_v<Field, double>) {
    return read_number(r, rule);
  } else if constexpr (std::is_same_v<Field, std::vector<int>>) {
    return read_increasing(r, rule);
  } else if constexpr (std::is_same_v<Field, per_frame_list>) {
    return read_per_frame(r, rule);
  } else if constexpr (std::is_same_v<Field, std::vector<std::string>>) {
    return read_texts(r);
  } else {  // a list of enum values, by name
    const auto indices = read_distinct(r, rule);
    if (!indices) return std::nullopt;
    Field values;
    for (const std::size_t i : *indices)
      values.push_back(static_cast<typename Field::value_type>(i));
    return values;
  }
}

// The field's TOML text, as the echo writes it.
template <class Field>
std::string write_as(const Field& value, const value_rule& rule) {
  if constexpr (std::is_same_v<Field, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_same_v<Field, std::string>) {
    return toml_string(value);
  } else if constexpr (std::is_enum_v<Field>) {
    return toml_string(rule.names[static_cast<std::size_t>(value)]);
  } else if constexpr (std::is_integral_v<Field>) {
    return std::to_string(value);
  } else if constexpr (std::is_same_v<Field, double>) {
    return float_text(value);
  } else if constexpr (std::is_same_v<Field, std::vector<int>>) {
    return list_text(value);
  } else if constexpr (std::is_same_v<Field, per_frame_list>) {
    return per_frame_text(value);
  } else if constexpr (std::is_same_v<Field, std::vector<std::string>>) {
    return texts_text(value);
  } else {
    std::vector<std::size_t> indices;
    for (const auto v : value) indices.push_back(static_cast<std::size_t>(v));
    return names_text(rule.names, indices);
  }
}

template <class>
struct member_traits;
template <class Owner, class Field>
struct member_traits<Field Owner::*> {
  using owner = Owner;
  using field = Field;
};

// One key of a table whose fields live in Owner.
template <class Owner>
struct key_def {
  std::string_view name;  // as written in the table
  value_rule rule;
  std::string_view unit;  // "Mbit/s", "s", "%", ... or empty
  std::string_view doc;   // one line: what the key does
  void (*read)(const value_reader&, const value_rule&, Owner&);
  std::string (*write)(const Owner&, const value_rule&);
  std::string_view required{};  // a required key's example value; empty: optional
};

template <auto Member>
void read_member(const value_reader& r, const value_rule& rule,
                 typename member_traits<decltype(Member)>::owner& owner) {
  if (auto value = read_as<typename member_traits<decltype(Member)>::field>(r, rule)) {
    owner.*Member = std::move(*value);
  }
}

template <auto Member>
std::string write_member(const typename member_traits<decltype(Member)>::owner& owner,
                         const value_rule& rule) {
  return write_as(owner.*Member, rule);
}

// The key name that fills Member by rule; read, when given, replaces the rule's reader.
template <auto Member>
constexpr key_def<typename member_traits<decltype(Member)>::owner> key(
    std::string_view name, value_rule rule, std::string_view unit, std::string_view doc,
    void (*read)(const value_reader&, const value_rule&,
                 typename member_traits<decltype(Member)>::owner&) = nullptr) {
  return {
      name, rule, unit, doc, read != nullptr ? read : read_member<Member>, write_member<Member>};
}

// The key made required: a profile without it is refused, naming example as a value to give.
template <class Owner>
constexpr key_def<Owner> required(key_def<Owner> def, std::string_view example) {
  def.required = example;
  return def;
}

// One key as the reference table shows it.
struct key_row {
  std::string key;            // dotted: "peer.port"
  std::string type;           // "integer", "string", ...
  std::string default_value;  // the echo's text of the default, or "required"
  std::string range;          // what is allowed
  std::string_view unit;
  std::string_view doc;
  std::string_view required;  // a required key's example value
};

// The reference's type and range columns for a rule.
std::string type_text(const value_rule& rule);
std::string range_text(const value_rule& rule);

// One TOML table of the profile and what its keys do.
struct table_def {
  std::string_view name;  // dotted: "peer", "durations.quick"
  // Reads every key of table (at path, the table's dotted name) into p, reporting misfits.
  void (*read)(const toml::table& table, const std::string& path, profile& p, pass_state& state);
  // Appends "key = value\n" for every key, in the table's order.
  void (*write)(const profile& p, std::string& out);
  // Appends every key's reference row (dotted under table), the values of p as defaults.
  void (*rows)(std::string_view table, const profile& p, std::vector<key_row>& out);
};

// The part of the profile a table fills: p.*Part, or p itself for nullptr.
template <auto Part, class Profile>
auto& part_of(Profile& p) {
  if constexpr (std::is_null_pointer_v<decltype(Part)>) {
    return p;
  } else {
    return p.*Part;
  }
}

// The names of Keys, in order, for the unknown-key message.
template <const auto& Keys>
inline constexpr auto key_names = [] {
  std::array<std::string_view, Keys.size()> names{};
  for (std::size_t i = 0; i < Keys.size(); ++i) names[i] = Keys[i].name;
  return names;
}();

template <auto Part, const auto& Keys>
void read_keys(const toml::table& table, const std::string& path, profile& p, pass_state& state) {
  auto& owner = part_of<Part>(p);
  for (const auto& [key, node] : table) {
    const std::string_view name = key.str();  // clang < 16 cannot capture a binding
    const std::string dotted = path + "." + std::string(name);
    const auto def = std::find_if(Keys.begin(), Keys.end(),
                                  [name](const auto& candidate) { return candidate.name == name; });
    if (def == Keys.end()) {
      state.report(dotted, line_of(node),
                   unknown_message(node.is_table(), path, name, key_names<Keys>));
      continue;
    }
    state.mark_seen(dotted, line_of(node));
    def->read(value_reader(node, dotted, state), def->rule, owner);
  }
}

template <auto Part, const auto& Keys>
void write_keys(const profile& p, std::string& out) {
  const auto& owner = part_of<Part>(p);
  for (const auto& def : Keys)
    out += std::string(def.name) + " = " + def.write(owner, def.rule) + '\n';
}

template <auto Part, const auto& Keys>
void rows_of(std::string_view table, const profile& p, std::vector<key_row>& out) {
  const auto& owner = part_of<Part>(p);
  for (const auto& def : Keys) {
    out.push_back({std::string(table) + "." + std::string(def.name), type_text(def.rule),
                   def.required.empty() ? def.write(owner, def.rule) : "required",
                   range_text(def.rule), def.unit, def.doc, def.required});
  }
}

// The table name whose keys are Keys, filling p.*Part (nullptr: p itself).
template <auto Part, const auto& Keys>
constexpr table_def table(std::string_view name) {
  return {name, read_keys<Part, Keys>, write_keys<Part, Keys>, rows_of<Part, Keys>};
}

// Every table of the profile, in echo order (detail/profile_keys.cpp).
std::span<const table_def> key_tables();

// Every key's reference row, in echo order, the struct defaults as defaults.
std::vector<key_row> key_rows();

}  // namespace hil::profile::detail
