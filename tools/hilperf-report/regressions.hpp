// hilperf-report --regressions: the run against the board's history (hil/report/history.hpp),
// read from the board profile's store ([history] url or dir; hil/history/store.hpp), with the
// tolerance and baseline size from [history]. In a board farm ($HILPERF_FARM, no --profile) each
// board's records against its own history (<history.dir>/<board id>, or the board's rows of a
// database), so boards sharing a profile keep apart. A database that cannot be reached fails the
// check naming it and its error; the run is kept on the runner and the next check uploads it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

// Exit codes of the regression check.
inline constexpr int regression_ok = 0;
inline constexpr int regression_found = 1;
inline constexpr int regression_bad_input = 2;
inline constexpr int regression_store_down = 3;   // the store could not be read or written
inline constexpr int regression_no_history = 77;  // ctest SKIP_RETURN_CODE: no history configured

struct regression_options {
  std::filesystem::path results;       // this run's results file
  std::optional<std::string> profile;  // --profile; else $HILPERF_PROFILE, else the build default
  std::optional<std::string> history;  // --history: a directory or store URL, over [history]
  bool store = true;                   // keep this run in the history afterwards
  std::string board;                   // --board: only this farm board's records; empty = all
};

// Compares, prints the table, stores the run; returns one of the exit codes above.
int check_regressions(const regression_options& o);
