// The SQLite engine (Debian's libsqlite3): one file, no server. Several processes may write the
// same file: each transaction takes the write lock at BEGIN IMMEDIATE and waits up to
// busy_wait for another writer to finish rather than failing, so racing runners queue.
#include <sqlite3.h>

#include <chrono>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "hil/history/detail/database.hpp"
#include "hil/history/store.hpp"

namespace hil::history::detail {
namespace {

// Long enough for the other writer's run (a few ms) many times over, short enough that a file
// locked by a hung process fails the regression case within its timeout.
constexpr std::chrono::milliseconds busy_wait{30'000};

struct close_db {
  void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
};
struct finalize {
  void operator()(sqlite3_stmt* s) const noexcept { sqlite3_finalize(s); }
};
using db_handle = std::unique_ptr<sqlite3, close_db>;
using statement = std::unique_ptr<sqlite3_stmt, finalize>;

class sqlite_executor final : public executor {
 public:
  sqlite_executor(sqlite3* db, const std::string& what) : db_(db), what_(what) {}

  std::vector<row> run(std::string_view sql, const std::vector<value>& params) override {
    sqlite3_stmt* raw = nullptr;
    check(sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &raw, nullptr));
    const statement s(raw);
    for (std::size_t i = 0; i < params.size(); ++i)
      bind(s.get(), static_cast<int>(i + 1), params[i]);
    std::vector<row> rows;
    for (int rc = sqlite3_step(s.get()); rc != SQLITE_DONE; rc = sqlite3_step(s.get())) {
      if (rc != SQLITE_ROW) check(rc);
      row r;
      for (int c = 0; c < sqlite3_column_count(s.get()); ++c) r.push_back(column(s.get(), c));
      rows.push_back(std::move(r));
    }
    return rows;
  }

  // Throws store_unavailable with SQLite's words when rc is an error.
  void check(int rc) const {
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
    throw store_unavailable(fmt::format("{}: {}", what_, sqlite3_errmsg(db_)));
  }

 private:
  // $N is parameter N: each statement here names its parameters $1, $2, … in order.
  void bind(sqlite3_stmt* s, int index, const value& v) const {
    int rc = SQLITE_OK;
    if (const auto* text = std::get_if<std::string>(&v)) {
      rc = sqlite3_bind_text(s, index, text->data(), static_cast<int>(text->size()),
                             SQLITE_TRANSIENT);
    } else if (const auto* number = std::get_if<std::int64_t>(&v)) {
      rc = sqlite3_bind_int64(s, index, *number);
    } else {
      rc = sqlite3_bind_double(s, index, std::get<double>(v));
    }
    check(rc);
  }

  static std::string column(sqlite3_stmt* s, int c) {
    switch (sqlite3_column_type(s, c)) {
      case SQLITE_NULL:
        return {};
      case SQLITE_FLOAT:
        return fmt::format("{}", sqlite3_column_double(s, c));  // shortest exact text
      default: {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s, c));
        return text == nullptr ? std::string() : std::string(text);
      }
    }
  }

  sqlite3* db_;
  const std::string& what_;
};

class sqlite_database final : public database {
 public:
  sqlite_database(db_handle db, std::string what) : db_(std::move(db)), what_(std::move(what)) {}

  [[nodiscard]] dialect kind() const override { return dialect::sqlite; }

  void transact(const std::function<void(executor&)>& body) override {
    sqlite_executor x(db_.get(), what_);
    x.run("BEGIN IMMEDIATE", {});
    try {
      body(x);
      x.run("COMMIT", {});
    } catch (...) {
      sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

 private:
  db_handle db_;
  std::string what_;
};

}  // namespace

std::unique_ptr<database> open_sqlite(const std::string& file, const std::string& what) {
  sqlite3* raw = nullptr;
  const int rc =
      sqlite3_open_v2(file.c_str(), &raw,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  db_handle db(raw);
  if (rc != SQLITE_OK) {
    throw store_unavailable(fmt::format("{}: cannot open: {}", what,
                                        raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
  }
  sqlite3_busy_timeout(db.get(), static_cast<int>(busy_wait.count()));
  // Foreign keys are off by default in SQLite; figures point at their run.
  sqlite3_exec(db.get(), "PRAGMA foreign_keys = ON", nullptr, nullptr, nullptr);
  return std::make_unique<sqlite_database>(std::move(db), what);
}

}  // namespace hil::history::detail
