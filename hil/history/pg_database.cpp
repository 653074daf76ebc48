// The PostgreSQL engine (libpqxx 6.4 over libpq): a server many runners share. The URL names
// user, host, port and database; the password comes from where libpq looks for it
// (PGPASSWORD, PGPASSFILE or ~/.pgpass), never from the profile. Each transaction is a
// pqxx::work (READ COMMITTED): two runners' runs are distinct rows, so they never conflict.
// A failure names the server (host, port, database), what the server said (libpq's verbose
// errors carry its SQLSTATE) and a likely cause (pg_failure.hpp).
#include <libpq-fe.h>
#include <pqxx/pqxx>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "hil/history/detail/database.hpp"
#include "hil/history/detail/pg_failure.hpp"
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

// libpq's error text of the connection a transaction runs on. Once a connection breaks, libpqxx
// reports only "not connected" and drops it when the transaction ends, with the server's last
// words ("terminating connection due to administrator command") still in the connection: read
// them while the transaction lives. pqxx::largeobject hands its subclasses the connection.
class connection_error final : pqxx::largeobject {
 public:
  static std::string of(const pqxx::dbtransaction& t) {
    const pqxx::internal::pq::PGconn* c = raw_connection(t);
    return c == nullptr ? std::string() : PQerrorMessage(c);
  }
};

class pg_database final : public database {
 public:
  pg_database(std::unique_ptr<pqxx::connection> connection, std::string what)
      : connection_(std::move(connection)), what_(std::move(what)) {
    // The server's errors with their SQLSTATE, which says the cause whatever the language.
    connection_->set_verbosity(pqxx::connection_base::verbose);
    const auto text = [](const char* v) { return v == nullptr ? "(libpq's default)" : v; };
    server_ = fmt::format("the server at {}:{}, database {}", text(connection_->hostname()),
                          text(connection_->port()), text(connection_->dbname()));
  }

  [[nodiscard]] dialect kind() const override { return dialect::postgresql; }

  void transact(const std::function<void(executor&)>& body) override {
    std::optional<pqxx::work> work;  // empty when BEGIN itself failed
    const auto text = [&] { return work ? connection_error::of(*work) : std::string(); };
    try {
      work.emplace(*connection_);
      pg_executor x(*work);
      body(x);
      work->commit();
    } catch (const pqxx::in_doubt_error& e) {
      // The connection broke during COMMIT: the run may or may not be kept. The next upload
      // of the same run finds it by its key and leaves it (add_run is idempotent).
      throw unavailable("lost the connection during COMMIT (the run may be kept or not)", text(),
                        e);
    } catch (const pqxx::broken_connection& e) {
      throw unavailable("lost the connection inside a transaction", text(), e);
    } catch (const pqxx::sql_error& e) {
      throw unavailable("refused a statement", e.what(), e);
    } catch (const pqxx::failure& e) {
      throw unavailable("failed", text(), e);
    }
  }

 private:
  // "<store>: the server at host:port, database db <happened>: the server said "…"; libpq: …;
  // likely cause: …", from libpq's text, else from libpqxx's own words.
  [[nodiscard]] store_unavailable unavailable(std::string_view happened, const std::string& text,
                                              const pqxx::failure& e) const {
    auto f = read_pg_error(text);
    if (f.server.empty() && f.client.empty()) f.client = one_line(e.what());
    return store_unavailable(fmt::format("{}: {} {}: {}", what_, server_, happened, explain(f)));
  }

  std::unique_ptr<pqxx::connection> connection_;
  std::string what_;
  std::string server_;  // "the server at host:port, database db"
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
    throw store_unavailable(
        fmt::format("{}: cannot connect: {}", what, explain(read_pg_error(e.what()))));
  }
}

}  // namespace hil::history::detail
