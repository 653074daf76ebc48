// The database store: the SQL, written once for SQLite and PostgreSQL (detail/database.hpp), and
// open_store choosing the engine of a location.
//
//   runs     id, board, run_key, started, runner, profile_hash, software_version, duration_set,
//            passed, failed, skipped                        UNIQUE (board, run_key)
//   figures  run_id → runs.id, seq, case_name, metric, value, unit, higher_is_better, judged,
//            attempts                                       PRIMARY KEY (run_id, seq)
//
// A run is one transaction: its row, then its figures; a second upload of the same run (a retry
// after a commit whose answer was lost, an import run twice) finds the key and adds nothing.
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "hil/history/detail/stores.hpp"

namespace hil::history::detail {
namespace {

double number(const std::string& text) {
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

std::int64_t integer(const std::string& text) {
  std::int64_t v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

// metric, unit, value, higher_is_better, judged from columns at offset.
report::metric_value figure_at(const row& r, std::size_t offset) {
  return {r[offset], r[offset + 1], number(r[offset + 2]), r[offset + 3] == "1",
          r[offset + 4] == "1"};
}

class sql_store final : public store {
 public:
  sql_store(std::unique_ptr<database> db, std::string what)
      : db_(std::move(db)), what_(std::move(what)) {}

  bool add_run(const run_entry& run) override {
    bool added = false;
    db_->transact([&](executor& x) {
      const auto ids = x.run(
          "INSERT INTO runs (board, run_key, started, runner, profile_hash, software_version, "
          "duration_set, passed, failed, skipped) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
          "$10) ON CONFLICT (board, run_key) DO NOTHING RETURNING id",
          {run.board, run.key, run.started, run.runner, run.profile_hash, run.software_version,
           run.duration_set, std::int64_t{run.passed}, std::int64_t{run.failed},
           std::int64_t{run.skipped}});
      if (ids.empty()) return;  // kept already
      const std::int64_t id = integer(ids.front().front());
      std::int64_t seq = 0;
      for (const auto& f : run.figures) {
        x.run(
            "INSERT INTO figures (run_id, seq, case_name, metric, value, unit, "
            "higher_is_better, judged, attempts) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            {id, seq++, f.case_name, f.figure.name, f.figure.value, f.figure.unit,
             std::int64_t{f.figure.higher_is_better ? 1 : 0}, std::int64_t{f.figure.judged ? 1 : 0},
             std::int64_t{f.attempts}});
      }
      added = true;
    });
    return added;
  }

  std::vector<report::history_run> last_runs(std::string_view board, std::size_t count) override {
    std::vector<report::history_run> runs;
    db_->transact([&](executor& x) {
      auto newest = x.run(
          "SELECT id, run_key FROM runs WHERE board = $1 ORDER BY started DESC, id DESC "
          "LIMIT $2",
          {std::string(board), static_cast<std::int64_t>(count)});
      for (auto it = newest.rbegin(); it != newest.rend(); ++it) {
        report::history_run run{(*it)[1], {}};
        for (const auto& f : x.run("SELECT metric, unit, value, higher_is_better, judged FROM "
                                   "figures WHERE run_id = $1 ORDER BY seq",
                                   {integer((*it)[0])})) {
          run.metrics.push_back(figure_at(f, 0));
        }
        runs.push_back(std::move(run));
      }
    });
    return runs;
  }

  std::vector<point> figures_since(std::string_view board, std::string_view since) override {
    std::vector<point> out;
    db_->transact([&](executor& x) {
      for (const auto& r :
           x.run("SELECT r.run_key, r.started, r.runner, r.software_version, f.case_name, "
                 "f.metric, f.unit, f.value, f.higher_is_better, f.judged FROM runs r JOIN "
                 "figures f ON f.run_id = r.id WHERE r.board = $1 AND r.started >= $2 "
                 "ORDER BY r.started, r.id, f.seq",
                 {std::string(board), std::string(since)})) {
        out.push_back({std::string(board), r[0], r[1], r[2], r[3], r[4], figure_at(r, 5)});
      }
    });
    return out;
  }

  std::vector<std::string> boards() override {
    std::vector<std::string> out;
    db_->transact([&](executor& x) {
      for (const auto& r : x.run("SELECT DISTINCT board FROM runs ORDER BY board", {}))
        out.push_back(r.front());
    });
    return out;
  }

  std::string where(const run_entry& run) const override {
    return fmt::format("run {} in {}", run.key, what_);
  }

 private:
  std::unique_ptr<database> db_;
  std::string what_;
};

}  // namespace

std::unique_ptr<store> make_sql_store(std::unique_ptr<database> db, std::string what) {
  migrate(*db, what, schema_version);
  return std::make_unique<sql_store>(std::move(db), std::move(what));
}

}  // namespace hil::history::detail

namespace hil::history {

std::unique_ptr<store> open_store(const location& where) {
  const std::string what = describe(where);
  switch (where.kind) {
    case engine::directory:
      return detail::make_dir_store(where.target);
    case engine::sqlite: {
      // A new store's directory is made, as the directory store makes its own.
      std::error_code ec;
      std::filesystem::create_directories(std::filesystem::path(where.target).parent_path(), ec);
      return detail::make_sql_store(detail::open_sqlite(where.target, what), what);
    }
    case engine::postgresql:
      break;
  }
#ifdef HIL_POSTGRESQL
  return detail::make_sql_store(detail::open_postgresql(where.target, what), what);
#else
  throw store_unavailable(
      fmt::format("{}: this hilperf was built without PostgreSQL (HIL_POSTGRESQL=OFF)", what));
#endif
}

}  // namespace hil::history
