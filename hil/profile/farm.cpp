// Board farm: the farm file, CTest's resource spec and the allocation CTest hands each case.
#include "hil/profile/farm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "hil/profile/detail/names.hpp"
#include "hil/profile/detail/toml_reader.hpp"

namespace hil::profile {
namespace {

namespace fs = std::filesystem;
using detail::line_of;

// Board ids: lowercase letters, digits and underscores, not starting with a digit. CTest rejects a
// spec file whose ids hold anything else (it would take a leading digit; ids here are also used in
// lock file names and reports, where a letter first reads better).
bool is_resource_id(std::string_view id) {
  if (id.empty() || (id.front() >= '0' && id.front() <= '9')) return false;
  return std::ranges::all_of(
      id, [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

// The farm file's text as TOML, or a profile_error for a missing file or a syntax error.
toml::table parse_farm_file(const fs::path& file) {
  std::error_code error;
  const std::optional<std::string> text =
      fs::is_regular_file(file, error) ? detail::read_text(file) : std::nullopt;
  if (!text) {
    throw profile_error(
        file.string(),
        {{"(file)", 0, fmt::format("{} is not a readable farm file", file.string())}}, "farm");
  }
  return detail::parse_toml(*text, file.string(), "farm");
}

// A board profile's problems, one indented line each, to nest under the board's key.
std::string nested(const profile_error& e) {
  std::string text;
  for (const auto& p : e.problems()) {
    text += p.line > 0 ? fmt::format("\n    line {}: {}: {}", p.line, p.key, p.message)
                       : fmt::format("\n    {}: {}", p.key, p.message);
  }
  return text;
}

// A board table's keys: only profile, ssh and bench, and ssh a usable target.
void check_board_keys(const toml::table& table, const std::string& where,
                      std::vector<problem>& problems) {
  for (const auto& [name, value] : table) {
    const std::string_view n = name.str();
    if (n != "profile" && n != "bench" && n != "ssh") {
      problems.push_back({where + "." + std::string(n), line_of(value),
                          "unknown key; a board has profile = \"<file>\", optionally ssh = "
                          "\"user@host\" (ci/board-launcher) and, for a simulated board, "
                          "bench = \"<name>\""});
    }
    if (n == "ssh") {
      const auto target = value.value<std::string>();
      if (!target || !detail::is_ssh_target(*target)) {
        problems.push_back({where + ".ssh", line_of(value),
                            fmt::format("the board's ssh target for ci/board-launcher: {}",
                                        detail::ssh_target_rule)});
      }
    }
  }
}

// Reads [boards.<id>] tables into f.boards, reporting every misfit.
void read_boards(const toml::table& root, const fs::path& file, farm& f,
                 std::vector<problem>& problems) {
  for (const auto& [key, node] : root) {
    if (key.str() != "boards") {
      problems.push_back({std::string(key.str()), line_of(node),
                          "unknown key; a farm file holds only [boards.<id>] tables"});
    }
  }
  const toml::table* boards = root["boards"].as_table();
  if (boards == nullptr || boards->empty()) {
    problems.push_back(
        {"boards", 0, "a farm lists at least one board: [boards.<id>] with profile = \"<file>\""});
    return;
  }
  for (const auto& [key, node] : *boards) {
    const std::string id(key.str());
    const std::string where = "boards." + id;
    if (!is_resource_id(id)) {
      problems.push_back({where, line_of(node),
                          "a board id is what CTest calls a resource id: lowercase letters, digits "
                          "and underscores, not starting with a digit (e.g. board_1)"});
    }
    const toml::table* table = node.as_table();
    if (table == nullptr) {
      problems.push_back({where, line_of(node), "must be a table with profile = \"<file>\""});
      continue;
    }
    check_board_keys(*table, where, problems);
    const toml::node* bench = table->get("bench");
    const auto bench_name = bench == nullptr ? std::nullopt : bench->value<std::string>();
    if (bench != nullptr && (!bench_name || !is_bench_name(*bench_name))) {
      problems.push_back({where + ".bench", line_of(*bench),
                          "a bench name of 1 to 8 lowercase letters or digits, as [sim] bench "
                          "(namespaces hilperf-<bench>-dut and -peer)"});
    }
    const auto path = (*table)["profile"].value<std::string>();
    if (!path || path->empty()) {
      problems.push_back({where + ".profile", line_of(node),
                          "missing: the board's profile file (relative to the farm file)"});
      continue;
    }
    fs::path resolved = *path;
    if (resolved.is_relative()) resolved = file.parent_path() / resolved;
    resolved = resolved.lexically_normal();
    try {
      farm_board b{id, resolved, load_profile(resolved)};
      if (bench_name && b.board.peer.mode != peer_mode::sim) {
        problems.push_back({where + ".bench", line_of(*bench),
                            fmt::format("{} describes a real board; bench names a simulated one",
                                        resolved.string())});
      } else if (bench_name) {
        b.board.sim.bench = *bench_name;
      }
      f.boards.push_back(std::move(b));
    } catch (const profile_error& e) {
      problems.push_back({where + ".profile", line_of(*table->get("profile")),
                          fmt::format("{} cannot be used:{}", resolved.string(), nested(e))});
    }
  }
}

// Two boards that would be one bench, or that would list different cases.
void check_distinct(const farm& f, std::vector<problem>& problems) {
  for (std::size_t i = 0; i < f.boards.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      const farm_board& a = f.boards[j];
      const farm_board& b = f.boards[i];
      const std::string key = "boards." + b.id;
      std::error_code error;
      const bool both_sim =
          a.board.peer.mode == peer_mode::sim && b.board.peer.mode == peer_mode::sim;
      if (!both_sim && fs::equivalent(a.profile_file, b.profile_file, error)) {
        problems.push_back({key, 0,
                            fmt::format("uses the same profile as boards.{} ({}): one "
                                        "board cannot be two resources",
                                        a.id, b.profile_file.string())});
      }
      if (both_sim && a.board.sim.bench == b.board.sim.bench) {
        problems.push_back(
            {key, 0,
             fmt::format("shares the simulated bench \"{}\" with boards.{}: give each board "
                         "its own bench = \"<name>\"",
                         b.board.sim.bench, a.id)});
      }
      if (a.board.mtu.tiers != b.board.mtu.tiers || a.board.mtu.jumbo != b.board.mtu.jumbo) {
        problems.push_back(
            {key, 0,
             fmt::format("lists other cases than boards.{} (mtu.tiers [{}] jumbo {} vs [{}] "
                         "jumbo {}): CTest discovers one case list for the farm; put boards with "
                         "other tiers in a farm of their own",
                         a.id, fmt::join(b.board.mtu.tiers, ", "), b.board.mtu.jumbo,
                         fmt::join(a.board.mtu.tiers, ", "), a.board.mtu.jumbo)});
      }
    }
  }
}

}  // namespace

const farm_board& farm::board(std::string_view id) const {
  const auto found = std::ranges::find_if(boards, [&](const farm_board& b) { return b.id == id; });
  if (found != boards.end()) return *found;
  std::vector<std::string> ids;
  for (const auto& b : boards) ids.push_back(b.id);
  throw std::runtime_error(fmt::format(
      "CTest allocated board \"{}\", which the farm {} does not list (it has: {}); was the "
      "resource spec file generated from another farm? Regenerate it with "
      "`hilperf-testbed farm-spec`",
      id, source, fmt::join(ids, ", ")));
}

farm load_farm(const fs::path& file) {
  const toml::table root = parse_farm_file(file);
  farm f;
  f.source = file.string();
  std::vector<problem> problems;
  read_boards(root, file, f, problems);
  check_distinct(f, problems);
  if (!problems.empty()) throw profile_error(f.source, std::move(problems), "farm");
  return f;
}

std::optional<fs::path> farm_from_environment() {
  const char* value = std::getenv(farm_env);  // NOLINT(concurrency-mt-unsafe)
  if (value == nullptr || *value == '\0') return std::nullopt;
  return fs::path(value);
}

std::string resource_spec_json(const farm& f) {
  nlohmann::json boards = nlohmann::json::array();
  for (const auto& b : f.boards) boards.push_back({{"id", b.id}, {"slots", 1}});
  const nlohmann::json spec{{"version", {{"major", 1}, {"minor", 0}}},
                            {"local", nlohmann::json::array({{{farm_resource, boards}}})}};
  return spec.dump(2) + "\n";
}

std::string parse_allocation(std::string_view value) {
  // CTest writes "id:<id>,slots:<n>" for each resource of the group, ';'-separated; the cases ask
  // for one board with one slot.
  constexpr std::string_view prefix = "id:";
  constexpr std::string_view suffix = ",slots:1";
  const bool one_board = value.starts_with(prefix) && value.ends_with(suffix) &&
                         value.size() > prefix.size() + suffix.size() &&
                         value.find(';') == std::string_view::npos;
  const std::string_view id =
      one_board ? value.substr(prefix.size(), value.size() - prefix.size() - suffix.size())
                : std::string_view();
  if (!one_board || id.find(',') != std::string_view::npos) {
    throw std::runtime_error(fmt::format(
        "CTest's board allocation \"{}\" is not one board (\"id:<board>,slots:1\"); the hil "
        "cases ask for RESOURCE_GROUPS boards:1",
        value));
  }
  return std::string(id);
}

std::optional<std::string> allocated_board() {
  // NOLINTBEGIN(concurrency-mt-unsafe): read once at start-up, before any thread exists
  const char* count = std::getenv("CTEST_RESOURCE_GROUP_COUNT");
  if (count == nullptr || *count == '\0') return std::nullopt;
  int groups = 0;
  const std::string_view text(count);
  if (std::from_chars(text.data(), text.data() + text.size(), groups).ptr !=
      text.data() + text.size()) {
    throw std::runtime_error(
        fmt::format("CTEST_RESOURCE_GROUP_COUNT is \"{}\", not a number", text));
  }
  for (int g = 0; g < groups; ++g) {
    const char* type = std::getenv(fmt::format("CTEST_RESOURCE_GROUP_{}", g).c_str());
    if (type == nullptr || std::string_view(type) != farm_resource) continue;
    const char* value = std::getenv(fmt::format("CTEST_RESOURCE_GROUP_{}_BOARDS", g).c_str());
    if (value == nullptr) {
      throw std::runtime_error(fmt::format(
          "CTEST_RESOURCE_GROUP_{} is \"boards\" but CTEST_RESOURCE_GROUP_{}_BOARDS is not set", g,
          g));
    }
    return parse_allocation(value);
  }
  // NOLINTEND(concurrency-mt-unsafe)
  return std::nullopt;
}

const farm_board& select_farm_board(const farm& f, bool listing) {
  if (const auto id = allocated_board()) return f.board(*id);
  if (listing) return f.boards.front();
  throw std::runtime_error(fmt::format(
      "farm mode (${}={}) but CTest allocated no board to this case: run ctest with "
      "--resource-spec-file <the spec `hilperf-testbed farm-spec` writes> (ci/run-hil --farm {} "
      "does both); without it, cases would share boards",
      farm_env, f.source, f.source));
}

}  // namespace hil::profile
