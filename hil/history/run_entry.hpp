// One run as the history store keeps it: who ran what where (board, runner, software version,
// profile, duration set, verdict counts) and its headline figures, each with the case it came
// from and the measurements that case took. Built from a run's records; also the form a run waits
// in locally when its upload failed (spool.hpp), as JSON.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "hil/record/case_record.hpp"
#include "hil/report/history.hpp"

namespace hil::history {

// One headline figure of a run (report::metric_value) and where it came from.
struct figure_row {
  std::string case_name;  // the record's case; empty for the run's own "extra attempts"
  report::metric_value figure;
  int attempts = 1;  // measurements the case took (record::case_record::attempt_count)
};

struct run_entry {
  std::string board;             // the farm board id; empty for a single board
  std::string key;               // unique per board: "<id>-<runner>-<random>", "dir:<id>"
  std::string started;           // UTC, ISO 8601 with microseconds: sorts as it reads
  std::string runner;            // the machine (or CI agent) that ran it
  std::string profile_hash;      // FNV-1a of the profile file's bytes, hex; empty when unknown
  std::string software_version;  // what the CI says the board ran ($HILPERF_SOFTWARE_VERSION)
  std::string duration_set;      // "quick", "nightly"; empty when unknown
  int passed = 0, failed = 0, skipped = 0;
  std::vector<figure_row> figures;  // in report::run_metrics's order
  std::filesystem::path results;    // the results file it came from (the directory store copies it)
};

// The figures of records, in report::run_metrics's order and with the same values.
[[nodiscard]] std::vector<figure_row> figure_rows(const std::vector<record::case_record>& records);

// The run's figures as report compares them.
[[nodiscard]] std::vector<report::metric_value> metrics_of(const run_entry& run);

// Who, what and when of a run: counts and figures from records, started and key from now, runner
// from $HILPERF_RUNNER (else the host name), software version from $HILPERF_SOFTWARE_VERSION.
[[nodiscard]] run_entry new_run(const std::vector<record::case_record>& records, std::string board);

// Now, as run_entry::started has it.
[[nodiscard]] std::string started_now();

// The run id (report::run_id_now's form, "20261130T020000Z") of a started time.
[[nodiscard]] std::string id_of_started(std::string_view started);

// "2026-11-30T02:00:00.000000Z" for a run id "20261130T020000Z"; empty when id is not one.
[[nodiscard]] std::string started_of_id(std::string_view id);

// FNV-1a (64 bit) of a file's bytes, 16 hex digits; empty when it cannot be read.
[[nodiscard]] std::string file_hash(const std::filesystem::path& file);

// The JSON form (spool files) and back; from_json throws std::runtime_error naming what is wrong.
[[nodiscard]] nlohmann::json to_json(const run_entry& run);
[[nodiscard]] run_entry run_from_json(const nlohmann::json& j);

}  // namespace hil::history
