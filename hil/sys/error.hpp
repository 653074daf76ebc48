// The error policy (docs/code-style.md rule 6), written down once:
//   - Setup and configuration errors throw std::system_error whose message says what failed, on
//   which
//     interface or address, and the likely cause. errno values use std::system_category(); libnl
//     codes use hil::link::nl_category().
//   - Expected failures on hot paths return std::error_code.
//   - Destructors never throw; they report through report_destructor_failure().
//   - Only tools/ mains turn errors into exit codes.
#pragma once

#include <string>
#include <string_view>
#include <system_error>

namespace hil::sys {

// Throws std::system_error for errno value err with the given context message.
[[noreturn]] void throw_errno(int err, const std::string& what);

// The same for the current errno.
[[noreturn]] void throw_last_errno(const std::string& what);

// Reports an error caught in a destructor on stderr; never throws.
void report_destructor_failure(std::string_view where, std::string_view what) noexcept;

}  // namespace hil::sys
