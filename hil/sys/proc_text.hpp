// Reading numbers out of the kernel's text files (/proc/schedstat, /proc/<pid>/stat, …).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hil::sys {

// The unsigned number at the start of text (after spaces); nullopt when there is none.
std::optional<std::uint64_t> leading_number(std::string_view text);

}  // namespace hil::sys
