// The import of a directory store (hilperf-report's history before the databases) into another
// store: <dir>/<id>.jsonl are runs of one board, <dir>/<board>/<id>.jsonl a farm's. Each run is
// keyed "dir:<id>" on its board, so an import run twice, or one interrupted and run again, adds
// each run once. Its figures are computed from its records as the regression check computes them.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "hil/history/store.hpp"

namespace hil::history {

struct import_tally {
  std::size_t added = 0;    // runs stored now
  std::size_t present = 0;  // runs the store had already
};

// Imports every run under dir into s; dir's own files go to board (empty: a single board).
// Throws record::results_format_error naming a bad file, store_unavailable.
import_tally import_directory(const std::filesystem::path& dir, store& s, const std::string& board);

}  // namespace hil::history
