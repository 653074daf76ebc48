// docs/profile.md's reference table, generated from the key table (reference.hpp).
#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "hil/profile/detail/key_table.hpp"
#include "hil/profile/reference.hpp"

namespace hil::profile {
namespace {

using detail::key_row;

// One section of the reference: the tables it covers and their rows (defaults per table).
struct section {
  std::vector<std::string_view> tables;
  std::vector<std::vector<key_row>> rows;  // per table, in key order
};

// Text for a Markdown table cell: '|' would end the cell.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// The key name below its table: "port" for "peer.port".
std::string_view leaf(const std::string& key) {
  return std::string_view(key).substr(key.rfind('.') + 1);
}

// True when two tables' rows differ in their defaults only (same keys, rules and meanings).
bool same_keys(const std::vector<key_row>& a, const std::vector<key_row>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (leaf(a[i].key) != leaf(b[i].key) || a[i].type != b[i].type || a[i].range != b[i].range ||
        a[i].unit != b[i].unit || a[i].doc != b[i].doc) {
      return false;
    }
  }
  return true;
}

// The key table's tables, neighbours with the same keys in one section.
std::vector<section> sections() {
  const profile defaults;
  std::vector<section> out;
  for (const detail::table_def& t : detail::key_tables()) {
    std::vector<key_row> rows;
    t.rows(t.name, defaults, rows);
    if (!out.empty() && same_keys(out.back().rows.front(), rows)) {
      out.back().tables.push_back(t.name);
      out.back().rows.push_back(std::move(rows));
    } else {
      out.push_back({{t.name}, {std::move(rows)}});
    }
  }
  return out;
}

// The default cell of key i: each table's default, or "required".
std::string default_cell(const section& s, std::size_t i) {
  const key_row& first = s.rows.front()[i];
  if (!first.required.empty()) return fmt::format("required, e.g. `{}`", cell(first.required));
  std::string text;
  for (const auto& rows : s.rows) {
    text += fmt::format("{}`{}`", text.empty() ? "" : " / ", cell(rows[i].default_value));
  }
  return text;
}

std::string section_text(const section& s) {
  std::string heading;
  for (const std::string_view t : s.tables) {
    heading += fmt::format("{}`[{}]`", heading.empty() ? "" : ", ", t);
  }
  std::string out = fmt::format("### {}\n\n", heading);
  if (s.tables.size() > 1) {
    out += fmt::format("Defaults: {}.\n\n", fmt::join(s.tables, " / "));
  }
  out += "| key | type | default | allowed | unit | meaning |\n|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < s.rows.front().size(); ++i) {
    const key_row& row = s.rows.front()[i];
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", leaf(row.key), row.type,
                       default_cell(s, i), cell(row.range), cell(row.unit), cell(row.doc));
  }
  return out;
}

}  // namespace

std::string reference_markdown() {
  std::string out;
  for (const section& s : sections()) out += (out.empty() ? "" : "\n") + section_text(s);
  return out;
}

std::string with_reference(std::string_view doc) {
  const std::size_t begin = doc.find(reference_begin);
  const std::size_t end = begin == std::string_view::npos ? begin : doc.find(reference_end, begin);
  if (end == std::string_view::npos) {
    throw std::runtime_error(
        fmt::format("the reference markers are missing: a line \"{}\", and "
                    "after it a line \"{}\"",
                    reference_begin, reference_end));
  }
  return fmt::format("{}{}\n\n{}\n{}", doc.substr(0, begin), reference_begin, reference_markdown(),
                     doc.substr(end));
}

}  // namespace hil::profile
