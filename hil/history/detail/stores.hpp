// The store engines behind open_store (store.hpp): the directory one, and the SQL one over a
// database engine (database.hpp).
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "hil/history/detail/database.hpp"
#include "hil/history/store.hpp"

namespace hil::history::detail {

[[nodiscard]] std::unique_ptr<store> make_dir_store(std::filesystem::path root);
// Migrates db to schema_version first. what names the store in messages.
[[nodiscard]] std::unique_ptr<store> make_sql_store(std::unique_ptr<database> db, std::string what);

}  // namespace hil::history::detail
