// The history store: where a board's runs are kept, behind one interface whatever keeps them.
//
//   location                     engine            one run is
//   dir:PATH (or a bare PATH)    directory         PATH[/<board>]/<id>.jsonl, the results file's
//   copy sqlite:PATH                  SQLite file       a row of runs, its rows of figures
//   postgresql://user@host/db    PostgreSQL        the same tables, on a server many runners share
//
// Relative paths are from a base directory (the profile's). A database store creates and migrates
// its schema itself (schema.hpp) and stores each run in one transaction, so two runners writing
// the same board at once lose nothing. Credentials never come from the location: PostgreSQL reads
// them from the environment (PGPASSWORD) or a pgpass file, as libpq does.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "hil/history/run_entry.hpp"
#include "hil/report/history.hpp"

namespace hil::history {

enum class engine { directory, sqlite, postgresql };

struct location {
  engine kind = engine::directory;
  std::string target;  // the directory or file (absolute once resolved), or the PostgreSQL URL
};

// Reads a location: "dir:PATH", "sqlite:PATH", "postgresql://…" (or "postgres://…"), or a bare
// PATH, a directory; relative paths are taken from base. Throws std::invalid_argument for an
// unknown scheme or a URL that holds a password (credentials belong in PGPASSWORD or a pgpass
// file).
[[nodiscard]] location parse_location(std::string_view text, const std::filesystem::path& base);

// The location for messages: the path, or the URL without any user name's password.
[[nodiscard]] std::string describe(const location& where);

// A store that cannot be reached or refused an operation: the location and the engine's own
// words (host, port, error), for the log and the regression verdict.
class store_unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One figure of one run, for the history verb's trends.
struct point {
  std::string board;
  std::string run;  // the run's key
  std::string started;
  std::string runner;
  std::string software_version;
  std::string case_name;
  report::metric_value figure;
};

class store {
 public:
  virtual ~store() = default;
  store() = default;
  store(const store&) = delete;
  store& operator=(const store&) = delete;

  // Keeps run, all of it or nothing; a run already kept (same board and key) is left as it is and
  // false returned. Throws store_unavailable.
  virtual bool add_run(const run_entry& run) = 0;
  // The last count runs of board, oldest first, with their figures. Throws store_unavailable, or
  // record::results_format_error for a bad file in a directory store.
  [[nodiscard]] virtual std::vector<report::history_run> last_runs(std::string_view board,
                                                                   std::size_t count) = 0;
  // Every figure of board's runs started at or after since (ISO 8601 prefix, empty: all), oldest
  // run first.
  [[nodiscard]] virtual std::vector<point> figures_since(std::string_view board,
                                                         std::string_view since) = 0;
  // The boards that have runs, sorted.
  [[nodiscard]] virtual std::vector<std::string> boards() = 0;
  // Where a run just added is, for the log ("…/20261201T020000Z.jsonl", "run <key> in …").
  [[nodiscard]] virtual std::string where(const run_entry& run) const = 0;
};

// Opens (and for a database, connects to and migrates) the store. Throws store_unavailable.
[[nodiscard]] std::unique_ptr<store> open_store(const location& where);

}  // namespace hil::history
