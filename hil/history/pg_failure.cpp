#include "hil/history/detail/pg_failure.hpp"

#include <algorithm>
#include <array>
#include <regex>
#include <utility>

namespace hil::history::detail {
namespace {

void append(std::string& to, std::string_view what, std::string_view separator) {
  if (what.empty()) return;
  if (!to.empty()) to += separator;
  to += what;
}

// SQLSTATEs a history store meets, and what usually causes them (PostgreSQL's appendix A).
using cause_of = std::pair<std::string_view, std::string_view>;

constexpr auto causes = std::to_array<cause_of>({
    {"57P01",
     "the server was stopped or restarted (pg_ctl stop or restart, a system shutdown), or an "
     "administrator ended the session (pg_terminate_backend)"},
    {"57P02", "another server process crashed and the server restarted: see the server's log"},
    {"57P03", "the server is starting up or shutting down: retry once it is up"},
    {"57P05", "the server's idle_session_timeout ended the session"},
    {"25P03", "the server's idle_in_transaction_session_timeout ended the session"},
    {"28P01",
     "the password is wrong or missing: PGPASSWORD or the pgpass file (docs/history.md, "
     "Credentials)"},
    {"28000", "pg_hba.conf has no entry that lets this user in from this host"},
    {"3D000", "the database does not exist: create it once (createdb, docs/history.md)"},
    {"53300", "the server has no connection left (max_connections)"},
    {"42501", "the user may not use the tables: grant it, or let it own the database"},
    {"53100", "the server's disk is full"},
});

// libpq's words (or the server's without a SQLSTATE, at connecting), when no SQLSTATE says.
constexpr auto client_causes = std::to_array<cause_of>({
    {"server closed the connection unexpectedly",
     "the server process ended (a stop, restart or crash) or the network dropped the connection"},
    {"Connection refused",
     "no server listens there: it is stopped, or the URL names the wrong host or port"},
    {"timeout expired", "the host does not answer: it is down, or a firewall drops the connection"},
    {"no password supplied",
     "no password: set PGPASSWORD or a pgpass file (docs/history.md, Credentials)"},
    {"could not translate host name", "the host name does not resolve: check the URL and DNS"},
    {"password authentication failed",
     "the password is wrong: PGPASSWORD or the pgpass file (docs/history.md, Credentials)"},
    {"does not exist", "the database does not exist: create it once (createdb, docs/history.md)"},
});

}  // namespace

pg_failure read_pg_error(std::string_view text) {
  static const std::regex severity(R"(^[A-Z]+:  (([0-9A-Z]{5}): )?(.*)$)");
  static const std::regex extra(R"(^(DETAIL|HINT):  (.*)$)");
  static const std::regex dropped(R"(^(LOCATION|LINE [0-9]+|QUERY|CONTEXT|STATEMENT):|^ *\^)");
  pg_failure f;
  std::string* last = nullptr;  // where a tab-indented continuation line goes
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line(text.substr(start, end - start));
    start = end + 1;
    std::smatch m;
    if (line.empty()) continue;
    if (line.front() == '\t') {
      if (last != nullptr) append(*last, line.substr(1), " ");
    } else if (std::regex_search(line, m, extra)) {
      append(f.server, m[1].str() + ": " + m[2].str(), "; ");
      last = &f.server;
    } else if (std::regex_search(line, dropped)) {
      last = nullptr;
    } else if (std::regex_search(line, m, severity) && f.server.empty()) {
      f.sqlstate = m[2].str();
      f.server = line.substr(0, line.find(':')) + (f.sqlstate.empty() ? "" : " " + f.sqlstate) +
                 ": " + m[3].str();
      last = &f.server;
    } else {
      append(f.client, line, " ");
      last = &f.client;
    }
  }
  return f;
}

std::string likely_cause(const pg_failure& f) {
  for (const auto& [code, cause] : causes) {
    if (f.sqlstate == code) return std::string(cause);
  }
  if (!f.sqlstate.empty()) return "see the server's log for this time";
  for (const auto& [words, cause] : client_causes) {
    if (f.client.find(words) != std::string::npos || f.server.find(words) != std::string::npos)
      return std::string(cause);
  }
  return "see the server's log for this time";
}

std::string explain(const pg_failure& f) {
  std::string out;
  if (!f.server.empty()) out = "the server said \"" + f.server + "\"";
  append(out, f.client.empty() ? "" : "libpq: " + f.client, "; ");
  append(out, "likely cause: " + likely_cause(f), "; ");
  return out;
}

}  // namespace hil::history::detail
