#include "regressions.hpp"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "hil/history/spool.hpp"
#include "hil/history/store.hpp"
#include "hil/profile/farm.hpp"
#include "hil/profile/profile.hpp"
#include "hil/record/record_file.hpp"
#include "hil/report/history.hpp"

namespace {

namespace fs = std::filesystem;
namespace history = hil::history;

// The store of a board profile ([history] url, else dir, relative to the profile's directory) or
// --history; none when neither is set.
std::optional<history::location> store_of(const regression_options& o, const fs::path& profile_file,
                                          const hil::profile::profile& p) {
  if (o.history) return history::parse_location(*o.history, {});
  const fs::path base = profile_file.parent_path();
  if (!p.history.url.empty()) return history::parse_location(p.history.url, base);
  if (p.history.dir.empty()) return std::nullopt;
  const fs::path dir = p.history.dir;
  return history::location{history::engine::directory,
                           (dir.is_relative() ? base / dir : dir).string()};
}

fs::path spool_of(const fs::path& profile_file, const hil::profile::profile& p) {
  if (p.history.spool.empty()) return history::default_spool_dir();
  const fs::path spool = p.history.spool;
  return spool.is_relative() ? profile_file.parent_path() / spool : spool;
}

// The store as the log names it: a directory store's board directory, as before the databases.
std::string shown(const history::location& where, const std::string& board) {
  if (where.kind == history::engine::directory && !board.empty())
    return (fs::path(where.target) / board).string();
  return history::describe(where);
}

// Uploads the runs an earlier upload failure kept for this store, saying so.
void upload_kept_runs(const fs::path& spool, const std::string& what, history::store& s) {
  for (const auto& u : history::upload_kept(spool, what, s)) {
    std::cout << fmt::format(
        "hilperf-report: uploaded run {}{} to {}, kept in {} since its upload failed{}\n", u.key,
        u.board.empty() ? "" : " (board " + u.board + ")", what, u.file.string(),
        u.added ? "" : " (the store had it already)");
  }
}

// The store cannot be reached: the run is kept for the next one, and the check fails with the
// cause, which names the store (host, port) and the engine's error.
int store_down(const regression_options& o, const history::run_entry& run, const fs::path& spool,
               const std::string& what, const std::string& who, const std::string& cause) {
  std::cout << fmt::format("hilperf-report: {}history store unavailable: {}\n", who, cause);
  if (o.store) {
    const fs::path kept = history::keep_run(spool, what, run);
    std::cout << fmt::format("hilperf-report: {}this run is kept in {}; the next run uploads it\n",
                             who, kept.string());
  }
  return regression_store_down;
}

void print_baseline(const std::vector<hil::report::history_run>& baseline,
                    const std::vector<hil::report::metric_change>& changes, const std::string& who,
                    const std::string& where, double tolerance) {
  if (baseline.empty()) {
    std::cout << fmt::format(
        "hilperf-report: {}{} holds no earlier run: this run becomes the baseline\n", who, where);
    return;
  }
  std::string ids;
  for (const auto& run : baseline) ids += (ids.empty() ? "" : ", ") + run.id;
  std::cout << fmt::format(
                   "hilperf-report: {}this run against the median of {} earlier run(s) in {}\n"
                   "hilperf-report: {}compared with: {}\n\n",
                   who, baseline.size(), where, who, ids)
            << hil::report::format_changes(changes, tolerance);
}

// One board's run against its history. board is the farm board id (its records only, its runs
// under that id in the store), empty for a single board.
int check_board(const regression_options& o, const fs::path& profile_file,
                const hil::profile::profile& p, const std::string& board) {
  const auto where = store_of(o, profile_file, p);
  if (!where) {
    std::cout << fmt::format(
        "hilperf-report: no history configured (history.url or history.dir in {}): nothing to "
        "compare with; set one to keep nightly runs and catch regressions\n",
        profile_file.string());
    return regression_no_history;
  }
  const std::string what = history::describe(*where);
  const std::string who = board.empty() ? std::string() : "board " + board + ": ";
  const auto records = hil::record::of_board(hil::record::read_records(o.results), board);
  const auto current = hil::report::run_metrics(records);
  history::run_entry run = history::new_run(records, board);
  run.results = o.results;
  run.profile_hash = history::file_hash(profile_file);
  run.duration_set = p.duration_set_name;
  const fs::path spool = spool_of(profile_file, p);
  std::unique_ptr<history::store> s;
  std::vector<hil::report::history_run> baseline;
  try {
    s = history::open_store(*where);
    upload_kept_runs(spool, what, *s);
    baseline = s->last_runs(board, static_cast<std::size_t>(p.history.baseline_runs));
  } catch (const history::store_unavailable& e) {
    return store_down(o, run, spool, what, who, e.what());
  }
  const double tolerance = p.history.tolerance_percent;
  const auto changes = hil::report::compare_with_history(current, baseline, tolerance);
  print_baseline(baseline, changes, who, shown(*where, board), tolerance);
  int verdict = regression_ok;
  if (o.store) {
    try {
      s->add_run(run);
      std::cout << fmt::format("hilperf-report: {}stored this run as {}\n", who, s->where(run));
    } catch (const history::store_unavailable& e) {
      verdict = store_down(o, run, spool, what, who, e.what());
    }
  }
  for (const auto& c : changes) {
    if (!c.regression) continue;
    verdict = regression_found;
    std::cout << fmt::format(
        "REGRESSION: {}{}: {:.1f} {} against a baseline of {:.1f} ({:+.1f} %, tolerance {:.1f} %) "
        "— likely cause: a change in the BSP, kernel config or board since the baseline runs\n",
        who, c.current.name, c.current.value, c.current.unit, c.baseline, c.change_percent,
        tolerance);
  }
  return verdict;
}

}  // namespace

int check_regressions(const regression_options& o) {
  try {
    const auto farm_file = hil::profile::farm_from_environment();
    if (!farm_file || o.profile) {
      const fs::path profile_file = hil::profile::select_profile(o.profile, HIL_DEFAULT_PROFILE);
      return check_board(o, profile_file, hil::profile::load_profile(profile_file), o.board);
    }
    // A farm: every board (or the one --board names) against its own history. A regression on
    // any board fails, then a store that could not be reached; "no history" only when no board
    // has one.
    const auto farm = hil::profile::load_farm(*farm_file);
    int worst = regression_no_history;
    for (const auto& b : farm.boards) {
      if (!o.board.empty() && b.id != o.board) continue;
      const int rc = check_board(o, b.profile_file, b.board, b.id);
      if (rc == regression_found || worst == regression_no_history ||
          (rc == regression_store_down && worst == regression_ok))
        worst = rc;
    }
    return worst;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-report: " << e.what() << '\n';
    return regression_bad_input;
  }
}
