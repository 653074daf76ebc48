// The PostgreSQL engine (libpqxx 6.4 over libpq): a server many runners share. The URL names
// user, host, port and database; the password comes from where libpq looks for it
// (PGPASSWORD, PGPASSFILE or ~/.pgpass), never from the profile. Each transaction is a
// pqxx::work (READ COMMITTED): two runners' runs are distinct rows, so they never conflict.
#include <pqxx/pqxx>

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "hil/history/detail/database.hpp"
#include "hil/history/store.hpp"

namespace hil::history::detail {
namespace {

// libpq's messages end in a newline and may span lines ("could not connect…\n\tIs the server
// running on host …"): one line for the log and the verdict.
std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

std::string as_text(const value& v) {
  if (const auto* text = std::get_if<std::string>(&v)) return *text;
  if (const auto* number = std::get_if<std::int64_t>(&v)) return std::to_string(*number);
  return fmt::format("{}", std::get<double>(v));  // shortest text that reads back exactly
}

class pg_executor final : public executor {
 public:
  explicit pg_executor(pqxx::work& work) : work_(work) {}

  std::vector<row> run(std::string_view sql, const std::vector<value>& params) override {
    std::vector<std::string> texts;
    texts.reserve(params.size());
    for (const auto& p : params) texts.push_back(as_text(p));
    const pqxx::result result =
        work_.exec_params(std::string(sql), pqxx::prepare::make_dynamic_params(texts));
    std::vector<row> rows;
    rows.reserve(result.size());
    for (const auto& r : result) {
      row out;
      out.reserve(r.size());
      for (const auto& field : r) out.emplace_back(field.is_null() ? "" : field.c_str());
      rows.push_back(std::move(out));
    }
    return rows;
  }

 private:
  pqxx::work& work_;
};

class pg_database final : public database {
 public:
  pg_database(std::unique_ptr<pqxx::connection> connection, std::string what)
      : connection_(std::move(connection)), what_(std::move(what)) {}

  [[nodiscard]] dialect kind() const override { return dialect::postgresql; }

  void transact(const std::function<void(executor&)>& body) override {
    try {
      pqxx::work work(*connection_);
      pg_executor x(work);
      body(x);
      work.commit();
    } catch (const pqxx::in_doubt_error& e) {
      // The connection broke during COMMIT: the run may or may not be kept. The next upload
      // of the same run finds it by its key and leaves it (add_run is idempotent).
      throw store_unavailable(fmt::format("{}: commit unconfirmed: {}", what_, one_line(e.what())));
    } catch (const pqxx::failure& e) {
      throw store_unavailable(fmt::format("{}: {}", what_, one_line(e.what())));
    }
  }

 private:
  std::unique_ptr<pqxx::connection> connection_;
  std::string what_;
};

}  // namespace

std::unique_ptr<database> open_postgresql(const std::string& url, const std::string& what) {
  // A server that does not answer (a host down, a firewall dropping) fails within the regression
  // case's timeout instead of hanging it: libpq waits forever unless told.
  std::string conninfo = url;
  if (url.find("connect_timeout") == std::string::npos &&
      std::getenv("PGCONNECT_TIMEOUT") == nullptr) {
    conninfo += url.find('?') == std::string::npos ? "?connect_timeout=10" : "&connect_timeout=10";
  }
  try {
    return std::make_unique<pg_database>(std::make_unique<pqxx::connection>(conninfo), what);
  } catch (const pqxx::failure& e) {
    throw store_unavailable(fmt::format("{}: cannot connect: {}", what, one_line(e.what())));
  }
}

}  // namespace hil::history::detail
