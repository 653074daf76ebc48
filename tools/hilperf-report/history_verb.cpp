#include "history_verb.hpp"

#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "hil/history/import.hpp"
#include "hil/history/store.hpp"
#include "hil/profile/profile.hpp"

namespace {

namespace fs = std::filesystem;
namespace history = hil::history;

struct verb_options {
  std::optional<std::string> profile;
  std::string store;
  std::string board;
  std::string metric;
  std::string since;
  bool csv = false;
  bool fell = false;
  std::string import_dir;
};

history::location store_location(const verb_options& o) {
  if (!o.store.empty()) return history::parse_location(o.store, {});
  const fs::path file = hil::profile::select_profile(o.profile, HIL_DEFAULT_PROFILE);
  const auto p = hil::profile::load_profile(file);
  const fs::path base = file.parent_path();
  if (!p.history.url.empty()) return history::parse_location(p.history.url, base);
  if (p.history.dir.empty()) {
    throw std::invalid_argument(fmt::format(
        "no history store: {} sets neither history.url nor history.dir (or give --store)",
        file.string()));
  }
  const fs::path dir = p.history.dir;
  return {history::engine::directory, (dir.is_relative() ? base / dir : dir).string()};
}

// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::vector<history::point> matching(std::vector<history::point> points,
                                     const std::string& metric) {
  std::erase_if(points, [&](const history::point& p) {
    return p.figure.name.find(metric) == std::string::npos;
  });
  return points;
}

int print_trend(history::store& s, const verb_options& o, const std::string& what) {
  const auto points = matching(s.figures_since(o.board, o.since), o.metric);
  if (o.csv) {
    std::cout << "board,run,started,runner,software_version,case,metric,value,unit\n";
    for (const auto& p : points) {
      std::cout << fmt::format("{},{},{},{},{},{},{},{},{}\n", csv_field(p.board), csv_field(p.run),
                               csv_field(p.started), csv_field(p.runner),
                               csv_field(p.software_version), csv_field(p.case_name),
                               csv_field(p.figure.name), p.figure.value, csv_field(p.figure.unit));
    }
    return 0;
  }
  std::cout << fmt::format("{}{}: {} figure(s){}{}\n\n", what,
                           o.board.empty() ? "" : " board " + o.board, points.size(),
                           o.metric.empty() ? "" : " matching \"" + o.metric + "\"",
                           o.since.empty() ? "" : " since " + o.since);
  std::cout << fmt::format("| {:<27} | {:<16} | {:<12} | {:>12} | {:<8} | {} |\n", "started",
                           "runner", "version", "value", "unit", "metric");
  for (const auto& p : points) {
    std::cout << fmt::format("| {:<27} | {:<16} | {:<12} | {:>12.2f} | {:<8} | {} |\n", p.started,
                             p.runner, p.software_version, p.figure.value, p.figure.unit,
                             p.figure.name);
  }
  return 0;
}

// Each board's matching figures: the first run since o.since against the latest.
int print_fell(history::store& s, const verb_options& o, const std::string& what) {
  std::cout << fmt::format("{}: \"{}\" at the first run since {} against the latest run\n\n", what,
                           o.metric, o.since);
  std::cout << fmt::format("| {:<12} | {:>12} | {:>12} | {:>8} | {:<6} | {} |\n", "board", "then",
                           "latest", "change", "", "metric");
  for (const auto& board : s.boards()) {
    std::map<std::string, std::pair<hil::report::metric_value, double>> first_last;
    for (const auto& p : matching(s.figures_since(board, o.since), o.metric)) {
      auto [it, fresh] = first_last.try_emplace(p.figure.name, p.figure, p.figure.value);
      if (!fresh) it->second.second = p.figure.value;
    }
    for (const auto& [name, fl] : first_last) {
      const auto& [then, latest] = fl;
      const double change =
          then.value == 0 ? 0 : (latest - then.value) / std::fabs(then.value) * 100;
      const bool fell = then.higher_is_better ? change < 0 : change > 0;
      std::cout << fmt::format("| {:<12} | {:>12.2f} | {:>12.2f} | {:>+7.1f}% | {:<6} | {} |\n",
                               board.empty() ? "(single)" : board, then.value, latest, change,
                               fell ? "FELL" : "", name);
    }
  }
  return 0;
}

}  // namespace

int history_main(int argc, char** argv) {
  CLI::App app("hilperf-report history: a board's trend from the history store, or an import",
               "hilperf-report history");
  verb_options o;
  app.add_option("--profile", o.profile, "board profile whose [history] names the store");
  app.add_option("--store", o.store, "the store: sqlite:FILE, postgresql://user@host/db, DIR")
      ->option_text("URL");
  app.add_option("--board", o.board, "the farm board (empty: a single board's history)");
  app.add_option("--metric", o.metric, "only figures whose name holds this text")
      ->option_text("TEXT");
  app.add_option("--since", o.since, "only runs since this UTC time or run id")->option_text("T");
  app.add_flag("--csv", o.csv, "comma-separated values, one figure a line");
  app.add_flag("--fell", o.fell, "every board: the first run since --since against the latest");
  auto* import_verb = app.add_subcommand("import", "import a directory store, idempotent");
  import_verb->add_option("dir", o.import_dir, "the directory (<id>.jsonl, <board>/<id>.jsonl)")
      ->required();
  import_verb->fallthrough();  // --store, --profile and --board after the directory
  CLI11_PARSE(app, argc, argv);
  try {
    if (const auto started = history::started_of_id(o.since); !started.empty()) o.since = started;
    const auto where = store_location(o);
    const std::string what = history::describe(where);
    const auto s = history::open_store(where);
    if (import_verb->parsed()) {
      const auto tally = history::import_directory(o.import_dir, *s, o.board);
      std::cout << fmt::format(
          "hilperf-report: imported {} run(s) from {} into {}; {} there already\n", tally.added,
          o.import_dir, what, tally.present);
      return 0;
    }
    if (o.fell) {
      if (o.since.empty() || o.metric.empty())
        throw std::invalid_argument("--fell needs --metric and --since");
      return print_fell(*s, o, what);
    }
    return print_trend(*s, o, what);
  } catch (const std::exception& e) {
    std::cerr << "hilperf-report history: " << e.what() << '\n';
    return 2;
  }
}
