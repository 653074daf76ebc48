#include "regressions.hpp"

#include <iostream>

#include <fmt/format.h>

#include "hil/profile/profile.hpp"
#include "hil/report/history.hpp"

int check_regressions(const regression_options& o) {
  namespace fs = std::filesystem;
  try {
    const fs::path profile_file = hil::profile::select_profile(o.profile, HIL_DEFAULT_PROFILE);
    const auto p = hil::profile::load_profile(profile_file);
    fs::path dir = o.history.value_or(p.history.dir);
    if (dir.empty()) {
      std::cout << fmt::format(
          "hilperf-report: no history configured (history.dir in {}): nothing to compare with; "
          "set it to keep nightly runs and catch regressions\n",
          profile_file.string());
      return regression_no_history;
    }
    if (dir.is_relative() && !o.history) dir = profile_file.parent_path() / dir;
    const auto current = hil::report::run_metrics(hil::report::read_results(o.results));
    const auto baseline =
        hil::report::load_history(dir, static_cast<std::size_t>(p.history.baseline_runs));
    const auto changes =
        hil::report::compare_with_history(current, baseline, p.history.tolerance_percent);
    if (baseline.empty()) {
      std::cout << fmt::format(
          "hilperf-report: {} holds no earlier run: this run becomes the "
          "baseline\n",
          dir.string());
    } else {
      std::cout << fmt::format(
                       "hilperf-report: this run against the median of {} earlier run(s) "
                       "in {}\n\n",
                       baseline.size(), dir.string())
                << hil::report::format_changes(changes, p.history.tolerance_percent);
    }
    if (o.store) {
      const std::string id = hil::report::run_id_now();
      hil::report::store_run(dir, id, o.results);
      std::cout << fmt::format("hilperf-report: stored this run as {}\n",
                               (dir / (id + ".jsonl")).string());
    }
    int regressed = 0;
    for (const auto& c : changes) {
      if (!c.regression) continue;
      ++regressed;
      std::cout << fmt::format(
          "REGRESSION: {}: {:.1f} {} against a baseline of {:.1f} ({:+.1f} %, tolerance {:.1f} %) "
          "— likely cause: a change in the BSP, kernel config or board since the baseline runs\n",
          c.current.name, c.current.value, c.current.unit, c.baseline, c.change_percent,
          p.history.tolerance_percent);
    }
    return regressed == 0 ? regression_ok : regression_found;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-report: " << e.what() << '\n';
    return regression_bad_input;
  }
}
