#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "hil/history/store.hpp"

namespace hil::history {
namespace fs = std::filesystem;
namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// A password in a PostgreSQL URL: "user:secret@" in its authority, or a password parameter.
bool holds_password(std::string_view url) {
  const auto authority_start = url.find("://") + 3;
  const auto authority_end = url.find_first_of("/?", authority_start);
  const auto authority = url.substr(authority_start, authority_end - authority_start);
  const auto at = authority.rfind('@');
  if (at != std::string_view::npos && authority.substr(0, at).find(':') != std::string_view::npos)
    return true;
  const auto query = url.find('?');
  return query != std::string_view::npos &&
         (url.find("?password=", query) != std::string_view::npos ||
          url.find("&password=", query) != std::string_view::npos);
}

std::string resolved(std::string_view path, const fs::path& base) {
  if (path.empty()) throw std::invalid_argument("history location: the path is empty");
  const fs::path p(path);
  return (p.is_relative() ? base / p : p).string();
}

}  // namespace

location parse_location(std::string_view text, const fs::path& base) {
  if (starts_with(text, "postgresql://") || starts_with(text, "postgres://")) {
    if (holds_password(text)) {
      throw std::invalid_argument(fmt::format(
          "history location {}…: holds a password; give it in PGPASSWORD or a pgpass file "
          "(~/.pgpass, PGPASSFILE), never in the profile",
          text.substr(0, text.find("://") + 3)));
    }
    return {engine::postgresql, std::string(text)};
  }
  if (starts_with(text, "sqlite:")) return {engine::sqlite, resolved(text.substr(7), base)};
  if (starts_with(text, "dir:")) return {engine::directory, resolved(text.substr(4), base)};
  const auto colon = text.find(':');
  const auto slash = text.find('/');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash) &&
      colon > 1) {
    throw std::invalid_argument(
        fmt::format("history location {}: unknown scheme {}; use sqlite:FILE, "
                    "postgresql://user@host/database or dir:DIRECTORY",
                    text, text.substr(0, colon + 1)));
  }
  return {engine::directory, resolved(text, base)};
}

std::string describe(const location& where) {
  switch (where.kind) {
    case engine::directory:
      return where.target;
    case engine::sqlite:
      return "sqlite:" + where.target;
    case engine::postgresql:
      break;
  }
  return where.target;
}

}  // namespace hil::history
