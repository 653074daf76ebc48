// Board profile loading: TOML text to a validated profile in ONE pass that collects every problem.
//
//   parse_toml ──(syntax error)──────────────────────────────────> profile_error, one problem
//        │
//        ▼
//   read_level(root) ── each TOML table to its table_def in the key table
//   (detail/profile_keys.cpp);
//        │              each key's rule reports wrong type / out of range / bad name for its own
//        │              value, read_level and read_keys report unknown keys and tables
//        ▼
//   check_required, check_addresses, check_history,
//   apply_durations_env ── checks that span several keys
//        ▼                                                  (detail/profile_checks.cpp)
//   problems sorted by line (missing keys last) ──> profile_error, or the profile
//
// Adding a key is one line in the key table; the echo and docs/profile.md's table follow from it.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "hil/profile/detail/key_table.hpp"
#include "hil/profile/detail/profile_checks.hpp"
#include "hil/profile/detail/toml_reader.hpp"
#include "hil/profile/profile.hpp"

namespace hil::profile {
namespace {

using detail::pass_state;

// The names one level below path ("" for the root) that the key table's tables start with, in
// table order and each once: "dut", "peer", ..., "durations", ...; under "durations": "quick",
// "nightly".
std::vector<std::string_view> names_below(std::string_view path) {
  std::vector<std::string_view> names;
  for (const detail::table_def& t : detail::key_tables()) {
    std::string_view rest = t.name;
    if (!path.empty()) {
      if (!rest.starts_with(path) || rest.size() <= path.size() || rest[path.size()] != '.') {
        continue;
      }
      rest.remove_prefix(path.size() + 1);
    }
    const std::string_view name = rest.substr(0, rest.find('.'));
    if (std::ranges::find(names, name) == names.end()) names.push_back(name);
  }
  return names;
}

// The table_def named dotted, or nullptr when dotted only leads to tables ("durations").
const detail::table_def* table_named(std::string_view dotted) {
  const auto tables = detail::key_tables();
  const auto found =
      std::ranges::find_if(tables, [dotted](const auto& t) { return t.name == dotted; });
  return found == tables.end() ? nullptr : &*found;
}

// Reads every table of toml_table (at path, "" for the root) through the key table.
void read_level(const toml::table& toml_table, const std::string& path, profile& p,
                pass_state& state) {
  const std::vector<std::string_view> known = names_below(path);
  for (const auto& [key, node] : toml_table) {
    const std::string_view name = key.str();  // clang < 16 cannot capture a binding
    const std::string dotted = path.empty() ? std::string(name) : path + "." + std::string(name);
    if (std::ranges::find(known, name) == known.end()) {
      state.report(dotted, detail::line_of(node),
                   detail::unknown_message(node.is_table(), path, name, known));
      continue;
    }
    state.mark_seen(dotted, detail::line_of(node));
    const detail::value_reader reader(node, dotted, state);
    const toml::table* table = reader.table();
    if (table == nullptr) continue;
    if (const detail::table_def* def = table_named(dotted)) {
      def->read(*table, dotted, p, state);
    } else {
      read_level(*table, dotted, p, state);
    }
  }
}

// "<file> does not exist; profiles in <dir>: a.toml, b.toml".
std::string missing_file_message(const std::filesystem::path& file) {
  const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : ".";
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    return fmt::format("{} does not exist, nor does the directory {}", file.string(), dir.string());
  }
  std::vector<std::string> names;
  for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().extension() == ".toml") names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  if (names.empty()) {
    return fmt::format("{} does not exist, and {} holds no *.toml profiles", file.string(),
                       dir.string());
  }
  return fmt::format("{} does not exist; profiles in {}: {}", file.string(), dir.string(),
                     fmt::join(names, ", "));
}

[[noreturn]] void throw_file_problem(const std::filesystem::path& file, std::string message) {
  throw profile_error(file.string(), {{"(file)", 0, std::move(message)}});
}

}  // namespace

profile parse_profile(std::string_view toml_text, std::string_view source) {
  const toml::table root = detail::parse_toml(toml_text, source, "profile");
  profile result;
  result.source = std::string(source);
  pass_state state;
  read_level(root, "", result, state);
  detail::check_required(result, state);
  detail::check_addresses(result, state);
  detail::check_history(result, state);
  detail::apply_durations_env(result, state);
  std::vector<problem> problems = state.sorted_problems();
  if (!problems.empty()) throw profile_error(result.source, std::move(problems));
  return result;
}

profile load_profile(const std::filesystem::path& file) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(file, error);
  if (!std::filesystem::exists(status)) throw_file_problem(file, missing_file_message(file));
  if (std::filesystem::is_directory(status)) {
    throw_file_problem(file, fmt::format("{} is a directory, not a profile file", file.string()));
  }
  const std::optional<std::string> text = detail::read_text(file);
  if (!text) {
    throw_file_problem(file,
                       fmt::format("{} cannot be read (check its permissions)", file.string()));
  }
  return parse_profile(*text, file.string());
}

}  // namespace hil::profile
