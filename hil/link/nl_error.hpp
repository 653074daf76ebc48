// libnl error codes as std::error_code, so link failures follow the project's one error policy.
#pragma once

#include <string>
#include <system_error>

namespace hil::link {

// The category of libnl's NLE_* codes (positive values); message() is nl_geterror()'s text.
const std::error_category& nl_category() noexcept;

// Maps a libnl return value (negative NLE_* code) to an error_code; NLE_PERM maps to EPERM and
// NLE_NODEV/NLE_OBJ_NOTFOUND to ENODEV in the system category, so callers can test them portably.
std::error_code make_nl_error(int nl_result) noexcept;

// Throws std::system_error for a negative libnl result with the given context.
[[noreturn]] void throw_nl(int nl_result, const std::string& what);

}  // namespace hil::link
