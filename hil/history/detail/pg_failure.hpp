// What a PostgreSQL failure says, for the log and the regression verdict. libpq's error text
// (a result's, or the connection's once it broke) mixes the server's own words ("FATAL:  57P01:
// terminating connection due to administrator command", with libpq's verbose SQLSTATE) with
// libpq's ("server closed the connection unexpectedly"); these pure functions separate them and
// name a likely cause, so the message says who said what and what to look at.
#pragma once

#include <string>
#include <string_view>

namespace hil::history::detail {

struct pg_failure {
  std::string sqlstate;  // the server's error code, "57P01"; empty when the server sent none
  std::string server;    // the server's words: severity, message, DETAIL and HINT; may be empty
  std::string client;    // libpq's own words on one line; may be empty
};

// Reads libpq's error text (verbose or not); LOCATION, LINE and caret lines are left out.
[[nodiscard]] pg_failure read_pg_error(std::string_view text);

// The likely cause, from the SQLSTATE, else from libpq's words (English); a general one when
// neither says.
[[nodiscard]] std::string likely_cause(const pg_failure& f);

// "the server said "<server>"; libpq: <client>; likely cause: <cause>", the parts there are.
[[nodiscard]] std::string explain(const pg_failure& f);

}  // namespace hil::history::detail
