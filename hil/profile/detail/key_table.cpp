// The readers, writers and reference texts behind the key table's templates
// (detail/key_table.hpp).
#include "hil/profile/detail/key_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace hil::profile::detail {
namespace {

// "`a`, `b`, `c`" for the reference's range column.
std::string quoted_names(std::span<const std::string_view> names) {
  std::string text;
  for (const std::string_view name : names) {
    text += fmt::format("{}`{}`", text.empty() ? "" : ", ", name);
  }
  return text;
}

}  // namespace

std::optional<std::string> read_string(const value_reader& r, const value_rule& rule) {
  if (rule.kind == value_kind::name) return r.string_where(rule.accepts, rule.form);
  if (rule.kind == value_kind::choice) {
    const auto index = r.choice(rule.names);
    return index ? std::optional(std::string(rule.names[*index])) : std::nullopt;
  }
  return r.string();
}

std::optional<double> read_number(const value_reader& r, const value_rule& rule) {
  if (rule.kind == value_kind::positive) {
    return r.positive_number(rule.high > 0 ? std::optional(rule.high) : std::nullopt);
  }
  std::optional<double> value = r.optional_limit();
  if (rule.kind == value_kind::below_100 && value && *value >= 100.0) {
    r.fail(fmt::format("must be below 100, got {}", *value));
    value.reset();
  }
  return value;
}

// Element problems carry their index; nullopt after reporting any problem.
std::optional<std::vector<int>> read_increasing(const value_reader& r, const value_rule& rule) {
  const toml::array* array = r.array();
  if (array == nullptr) return std::nullopt;
  if (array->empty()) {
    r.fail(std::string(rule.when_empty));
    return std::nullopt;
  }
  std::vector<int> values;
  bool all_valid = true;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const value_reader element((*array)[i], fmt::format("{}[{}]", r.key(), i), r.state());
    const std::optional<std::int64_t> value =
        element.integer(static_cast<std::int64_t>(rule.low), static_cast<std::int64_t>(rule.high));
    if (!value) {
      all_valid = false;
    } else if (!values.empty() && *value <= values.back()) {
      element.fail(fmt::format("{} must be strictly increasing, but {} follows {}", rule.form,
                               *value, values.back()));
      all_valid = false;
    } else {
      values.push_back(static_cast<int>(*value));
    }
  }
  return all_valid ? std::optional(std::move(values)) : std::nullopt;
}

std::optional<std::vector<std::size_t>> read_distinct(const value_reader& r,
                                                      const value_rule& rule) {
  const toml::array* array = r.array();
  if (array == nullptr) return std::nullopt;
  if (array->empty()) {
    r.fail(std::string(rule.when_empty));
    return std::nullopt;
  }
  std::vector<std::size_t> values;
  bool all_valid = true;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const value_reader element((*array)[i], fmt::format("{}[{}]", r.key(), i), r.state());
    const auto index = element.choice(rule.names);
    if (!index) {
      all_valid = false;
    } else if (std::ranges::find(values, *index) != values.end()) {
      element.fail(fmt::format("lists a {} twice", rule.form));
      all_valid = false;
    } else {
      values.push_back(*index);
    }
  }
  return all_valid ? std::optional(std::move(values)) : std::nullopt;
}

// { frame64 = 30.0, … }, each key a frame size as the cases name it.
std::optional<per_frame_list> read_per_frame(const value_reader& r, const value_rule& rule) {
  const toml::table* table = r.table();
  if (table == nullptr) return std::nullopt;
  const auto low = static_cast<int>(rule.low);
  const auto high = static_cast<int>(rule.high);
  per_frame_list values;
  for (const auto& [key, node] : *table) {
    const std::string name(key.str());
    const std::string dotted = fmt::format("{}.{}", r.key(), name);
    const value_reader value(node, dotted, r.state());
    int frame = 0;
    const bool named =
        name.size() > 5 && name.compare(0, 5, "frame") == 0 &&
        std::all_of(name.begin() + 5, name.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) &&
        name.size() <= 10;
    if (named) frame = std::stoi(name.substr(5));
    if (!named || frame < low || frame > high) {
      value.fail(fmt::format(
          "must be named frame<bytes> for a frame of {} to {} bytes, e.g. frame64 = 30.0", low,
          high));
      continue;
    }
    r.state().mark_seen(dotted, line_of(node));
    if (const auto percent = value.positive_number(100.0)) values.emplace_back(frame, *percent);
  }
  return values;
}

std::optional<std::vector<std::string>> read_texts(const value_reader& r) {
  const toml::array* array = r.array();
  if (array == nullptr) return std::nullopt;
  std::vector<std::string> values;
  bool all_valid = true;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const value_reader element((*array)[i], fmt::format("{}[{}]", r.key(), i), r.state());
    if (auto value = element.string()) {
      values.push_back(std::move(*value));
    } else {
      all_valid = false;
    }
  }
  return all_valid ? std::optional(std::move(values)) : std::nullopt;
}

std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\u{:04X}", static_cast<unsigned>(byte));
    } else {
      out += c;
    }
  }
  return out + '"';
}

// The shortest text that reads back as the same double, always with a '.' or 'e'.
std::string float_text(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // 'n': inf and nan
  return text;
}

std::string list_text(const std::vector<int>& values) {
  return fmt::format("[{}]", fmt::join(values, ", "));
}

std::string names_text(std::span<const std::string_view> names,
                       const std::vector<std::size_t>& indices) {
  std::vector<std::string> quoted;
  for (const std::size_t i : indices) quoted.push_back(toml_string(names[i]));
  return fmt::format("[{}]", fmt::join(quoted, ", "));
}

std::string per_frame_text(const per_frame_list& values) {
  std::string by_frame;
  for (const auto& [frame, percent] : values) {
    by_frame +=
        fmt::format("{}frame{} = {}", by_frame.empty() ? "" : ", ", frame, float_text(percent));
  }
  return by_frame.empty() ? "{}" : "{ " + by_frame + " }";
}

std::string texts_text(const std::vector<std::string>& values) {
  std::vector<std::string> quoted;
  for (const auto& v : values) quoted.push_back(toml_string(v));
  return fmt::format("[{}]", fmt::join(quoted, ", "));
}

std::string type_text(const value_rule& rule) {
  switch (rule.kind) {
    case value_kind::text:
    case value_kind::name:
    case value_kind::choice:
      return "string";
    case value_kind::integer:
      return "integer";
    case value_kind::positive:
    case value_kind::limit:
    case value_kind::below_100:
      return "number";
    case value_kind::boolean:
      return "boolean";
    case value_kind::increasing:
      return "integer array";
    case value_kind::distinct:
    case value_kind::texts:
      return "string array";
    case value_kind::per_frame:
      return "table";
  }
  return "?";
}

std::string range_text(const value_rule& rule) {
  switch (rule.kind) {
    case value_kind::text:
    case value_kind::name:
      return std::string(rule.form);
    case value_kind::choice:
      return quoted_names(rule.names);
    case value_kind::integer:
      return fmt::format("{} to {}", rule.low, rule.high);
    case value_kind::positive:
      return rule.high > 0 ? fmt::format("> 0, ≤ {}", rule.high) : "> 0";
    case value_kind::limit:
      return "≥ 0";
    case value_kind::below_100:
      return "≥ 0, < 100";
    case value_kind::boolean:
      return "`true`, `false`";
    case value_kind::increasing:
      return fmt::format("strictly increasing, each {} to {}", rule.low, rule.high);
    case value_kind::distinct:
      return "distinct, each one of " + quoted_names(rule.names);
    case value_kind::per_frame:
      return fmt::format("`frame<bytes> = %`, bytes {} to {}, % > 0, ≤ 100", rule.low, rule.high);
    case value_kind::texts:
      return std::string(rule.form);
  }
  return {};
}

std::vector<key_row> key_rows() {
  const profile defaults;
  std::vector<key_row> rows;
  for (const table_def& t : key_tables()) t.rows(t.name, defaults, rows);
  return rows;
}

}  // namespace hil::profile::detail
