// PostgreSQL's failures read for the log (hil/history/detail/pg_failure.hpp): the server's words
// and SQLSTATE apart from libpq's, and a likely cause. The texts are libpq 15's, as a real server
// makes them; db.history.suite_outage sees the first one through the HIL suite.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hil/history/detail/pg_failure.hpp"

namespace hil::history::detail {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// The server stopped (pg_ctl stop -m fast) while a statement waited: the connection's text.
constexpr const char* stopped =
    "FATAL:  57P01: terminating connection due to administrator command\n"
    "LOCATION:  ProcessInterrupts, postgres.c:3206\n"
    "server closed the connection unexpectedly\n"
    "\tThis probably means the server terminated abnormally\n"
    "\tbefore or while processing the request.\n";

TEST(PgFailure, AStoppedServerIsNamedByItsOwnWordsAndCode) {
  const auto f = read_pg_error(stopped);
  EXPECT_EQ(f.sqlstate, "57P01");
  EXPECT_EQ(f.server, "FATAL 57P01: terminating connection due to administrator command");
  EXPECT_EQ(f.client,
            "server closed the connection unexpectedly This probably means the server terminated "
            "abnormally before or while processing the request.");
  EXPECT_THAT(likely_cause(f), StartsWith("the server was stopped or restarted"));
  EXPECT_THAT(explain(f),
              StartsWith("the server said \"FATAL 57P01: terminating connection due to "
                         "administrator command\"; libpq: server closed the connection"));
  EXPECT_THAT(explain(f), HasSubstr("; likely cause: the server was stopped or restarted"));
}

TEST(PgFailure, AConnectionCutWithoutAWordFromTheServerBlamesTheProcessOrTheNetwork) {
  const auto f = read_pg_error(
      "server closed the connection unexpectedly\n\tThis probably means the server terminated "
      "abnormally\n");
  EXPECT_EQ(f.sqlstate, "");
  EXPECT_EQ(f.server, "");
  EXPECT_THAT(explain(f), StartsWith("libpq: server closed the connection unexpectedly"));
  EXPECT_THAT(likely_cause(f), HasSubstr("or the network dropped the connection"));
}

TEST(PgFailure, NoServerListeningSaysSo) {
  const auto f = read_pg_error(
      "connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the server "
      "running on that host and accepting TCP/IP connections?\n");
  EXPECT_THAT(f.client, StartsWith("connection to server at \"127.0.0.1\", port 1 failed"));
  EXPECT_THAT(likely_cause(f), StartsWith("no server listens there"));
}

TEST(PgFailure, AWrongPasswordAtConnectingPointsAtTheCredentials) {
  const auto f = read_pg_error(
      "connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  password authentication "
      "failed for user \"hilperf\"\n");
  EXPECT_THAT(likely_cause(f), HasSubstr("PGPASSWORD or the pgpass file"));
}

TEST(PgFailure, AStatementErrorKeepsDetailAndHintAndDropsTheLocation) {
  const auto f = read_pg_error(
      "ERROR:  42P01: relation \"figures\" does not exist\n"
      "LINE 1: INSERT INTO figures (run_id) VALUES ($1)\n"
      "                    ^\n"
      "HINT:  Run the migration.\n"
      "LOCATION:  parserOpenTable, parse_relation.c:1392\n");
  EXPECT_EQ(f.sqlstate, "42P01");
  EXPECT_EQ(f.server, "ERROR 42P01: relation \"figures\" does not exist; HINT: Run the migration.");
  EXPECT_EQ(f.client, "");
  // A code the table does not know: no guess from its words ("does not exist" is a database's).
  EXPECT_EQ(likely_cause(f), "see the server's log for this time");
}

TEST(PgFailure, NothingToReadStillGivesACause) {
  const auto f = read_pg_error("");
  EXPECT_EQ(explain(f), "likely cause: see the server's log for this time");
}

}  // namespace
}  // namespace hil::history::detail
