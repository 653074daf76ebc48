// The database stores' schema and its migrations. The table hilperf_schema holds one row per
// version applied; a store is at the highest. Opening a store applies the missing steps in one
// transaction, so a store is never half migrated, and on PostgreSQL under an advisory lock, so
// two runners opening a new database at once do not both create it.
//
//   version 1  runs (board, key, started, runner, profile hash, software version, duration set,
//              verdict counts) and figures (case, metric, value, unit, better direction)
//   version 2  figures.judged (a figure shown but never a regression) and figures.attempts
//              (measurements the case took), and an index of a board's runs by start time
//
// A store whose version is above schema_version was written by a newer hilperf: refused, never
// downgraded.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "hil/history/detail/database.hpp"
#include "hil/history/run_entry.hpp"
#include "hil/history/store.hpp"

namespace hil::history::detail {
namespace {

// The serial key column, the one thing the steps spell differently.
std::string id_column(dialect d) {
  return d == dialect::sqlite ? "INTEGER PRIMARY KEY" : "BIGSERIAL PRIMARY KEY";
}

// The statements of step version (1-based).
std::vector<std::string> step(int version, dialect d) {
  if (version == 1) {
    return {
        fmt::format("CREATE TABLE runs (id {}, board TEXT NOT NULL, run_key TEXT NOT NULL, "
                    "started TEXT NOT NULL, runner TEXT NOT NULL, profile_hash TEXT NOT NULL, "
                    "software_version TEXT NOT NULL, duration_set TEXT NOT NULL, "
                    "passed INTEGER NOT NULL, failed INTEGER NOT NULL, skipped INTEGER NOT NULL, "
                    "UNIQUE (board, run_key))",
                    id_column(d)),
        "CREATE TABLE figures (run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, "
        "seq INTEGER NOT NULL, case_name TEXT NOT NULL, metric TEXT NOT NULL, "
        "value DOUBLE PRECISION NOT NULL, unit TEXT NOT NULL, higher_is_better INTEGER NOT NULL, "
        "PRIMARY KEY (run_id, seq))",
    };
  }
  return {
      "ALTER TABLE figures ADD COLUMN judged INTEGER NOT NULL DEFAULT 1",
      "ALTER TABLE figures ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1",
      "CREATE INDEX runs_by_board_started ON runs (board, started)",
  };
}

// A lock number of hilperf's own for pg_advisory_xact_lock: "hilperf" in ASCII.
constexpr std::int64_t migration_lock = 0x68696c70657266;

}  // namespace

void migrate(database& db, const std::string& what, int target) {
  db.transact([&](executor& x) {
    if (db.kind() == dialect::postgresql) {
      x.run("SELECT pg_advisory_xact_lock($1)", {migration_lock});
    }
    // Asked first rather than CREATE … IF NOT EXISTS, which PostgreSQL answers with a notice
    // libpq would print on every run.
    const auto exists =
        db.kind() == dialect::postgresql
            ? x.run("SELECT 1 WHERE to_regclass('hilperf_schema') IS NOT NULL", {})
            : x.run("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hilperf_schema'",
                    {});
    if (exists.empty()) {
      x.run("CREATE TABLE hilperf_schema (version INTEGER PRIMARY KEY, applied TEXT NOT NULL)", {});
    }
    const auto rows = x.run("SELECT COALESCE(MAX(version), 0) FROM hilperf_schema", {});
    const int at = rows.empty() ? 0 : std::stoi(rows.front().front());
    if (at > schema_version) {
      throw store_unavailable(fmt::format(
          "{}: schema version {} is newer than this hilperf's ({}); use a newer hilperf-report",
          what, at, schema_version));
    }
    for (int v = at + 1; v <= target; ++v) {
      for (const auto& statement : step(v, db.kind())) x.run(statement, {});
      x.run("INSERT INTO hilperf_schema (version, applied) VALUES ($1, $2)",
            {std::int64_t{v}, started_now()});
    }
  });
}

}  // namespace hil::history::detail
