#include "regressions.hpp"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "hil/profile/farm.hpp"
#include "hil/profile/profile.hpp"
#include "hil/report/history.hpp"

namespace {

namespace fs = std::filesystem;

// One board's run against its history. board is the farm board id (its records only, its history
// in <history.dir>/<board>), empty for a single board.
int check_board(const regression_options& o, const fs::path& profile_file,
                const hil::profile::profile& p, const std::string& board) {
  fs::path dir = o.history.value_or(p.history.dir);
  if (dir.empty()) {
    std::cout << fmt::format(
        "hilperf-report: no history configured (history.dir in {}): nothing to compare with; "
        "set it to keep nightly runs and catch regressions\n",
        profile_file.string());
    return regression_no_history;
  }
  if (dir.is_relative() && !o.history) dir = profile_file.parent_path() / dir;
  if (!board.empty()) dir /= board;
  const auto records = hil::record::of_board(hil::record::read_records(o.results), board);
  const auto current = hil::report::run_metrics(records);
  const auto baseline =
      hil::report::load_history(dir, static_cast<std::size_t>(p.history.baseline_runs));
  const auto changes =
      hil::report::compare_with_history(current, baseline, p.history.tolerance_percent);
  const std::string who = board.empty() ? std::string() : "board " + board + ": ";
  if (baseline.empty()) {
    std::cout << fmt::format(
        "hilperf-report: {}{} holds no earlier run: this run becomes the baseline\n", who,
        dir.string());
  } else {
    std::cout << fmt::format(
                     "hilperf-report: {}this run against the median of {} earlier run(s) in {}\n\n",
                     who, baseline.size(), dir.string())
              << hil::report::format_changes(changes, p.history.tolerance_percent);
  }
  if (o.store) {
    const std::string id = hil::report::run_id_now();
    hil::report::store_run(dir, id, o.results, board);
    std::cout << fmt::format("hilperf-report: {}stored this run as {}\n", who,
                             (dir / (id + ".jsonl")).string());
  }
  int regressed = 0;
  for (const auto& c : changes) {
    if (!c.regression) continue;
    ++regressed;
    std::cout << fmt::format(
        "REGRESSION: {}{}: {:.1f} {} against a baseline of {:.1f} ({:+.1f} %, tolerance {:.1f} %) "
        "— likely cause: a change in the BSP, kernel config or board since the baseline runs\n",
        who, c.current.name, c.current.value, c.current.unit, c.baseline, c.change_percent,
        p.history.tolerance_percent);
  }
  return regressed == 0 ? regression_ok : regression_found;
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
    // any board fails; "no history" only when no board has one.
    const auto farm = hil::profile::load_farm(*farm_file);
    int worst = regression_no_history;
    for (const auto& b : farm.boards) {
      if (!o.board.empty() && b.id != o.board) continue;
      const int rc = check_board(o, b.profile_file, b.board, b.id);
      if (rc == regression_found || worst == regression_no_history) worst = rc;
    }
    return worst;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-report: " << e.what() << '\n';
    return regression_bad_input;
  }
}
