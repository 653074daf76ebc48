// Runs whose upload failed, kept on the runner until a later run uploads them: one JSON file per
// run in the spool directory, naming the store it is for.
//
//   <spool>/<run key>.json    {"store": "postgresql://ci@db/hilperf", "run": {…run_entry…}}
//
// A run is written to a temporary name and renamed, so a file is whole or absent. Two runs on one
// runner uploading the same file at once store it once (add_run is idempotent by key).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "hil/history/run_entry.hpp"
#include "hil/history/store.hpp"

namespace hil::history {

// $XDG_STATE_HOME/hilperf/history-spool, else ~/.local/state/hilperf/history-spool: outside any
// build or CI workspace, which a CI agent may wipe between jobs.
[[nodiscard]] std::filesystem::path default_spool_dir();

// Keeps run for the store described by store_id (describe(location)); returns its file. Throws
// std::system_error when it cannot write.
std::filesystem::path keep_run(const std::filesystem::path& spool, const std::string& store_id,
                               const run_entry& run);

// A kept run uploaded by upload_kept.
struct uploaded_run {
  std::string key;
  std::string board;
  std::filesystem::path file;  // where it was kept (removed now)
  bool added = true;           // false: the store had it already
};

// Uploads the runs kept for store_id into s, oldest first, removing each file once stored.
// Throws store_unavailable at the first that fails (it and the later ones stay kept), or
// std::runtime_error naming a file that is not a kept run.
std::vector<uploaded_run> upload_kept(const std::filesystem::path& spool,
                                      const std::string& store_id, store& s);

}  // namespace hil::history
