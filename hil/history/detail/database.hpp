// The little a database store needs of an engine: statements with parameters ($1, $2, … in
// order, as both SQLite and PostgreSQL read them) run inside one transaction at a time, rows back
// as text. sql_store.cpp writes its SQL once over this; sqlite_database.cpp and pg_database.cpp
// are the engines. Kept out of the public headers: nothing above hil/history sees an engine.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace hil::history::detail {

using value = std::variant<std::string, std::int64_t, double>;
using row = std::vector<std::string>;  // a double comes back as its shortest exact text

// What differs between the engines' SQL.
enum class dialect { sqlite, postgresql };

class executor {
 public:
  virtual ~executor() = default;
  // Runs one statement; its rows (none for most). Throws store_unavailable.
  virtual std::vector<row> run(std::string_view sql, const std::vector<value>& params) = 0;
};

class database {
 public:
  virtual ~database() = default;
  [[nodiscard]] virtual dialect kind() const = 0;
  // Runs body in one transaction: committed when it returns, rolled back when it throws (the
  // exception passes on). SQLite takes the write lock at the start (BEGIN IMMEDIATE), waiting
  // for another writer rather than failing. Throws store_unavailable.
  virtual void transact(const std::function<void(executor&)>& body) = 0;
};

// The engines. what names the store in errors. Throw store_unavailable when they cannot open.
[[nodiscard]] std::unique_ptr<database> open_sqlite(const std::string& file,
                                                    const std::string& what);
[[nodiscard]] std::unique_ptr<database> open_postgresql(const std::string& url,
                                                        const std::string& what);

// Creates the schema or brings it up to schema_version (schema.cpp), in one transaction.
void migrate(database& db, const std::string& what, int target);
inline constexpr int schema_version = 2;

}  // namespace hil::history::detail
