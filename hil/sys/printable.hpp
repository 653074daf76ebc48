// Text from outside made safe to print on one log line or terminal line: what a peer or a client
// sent (a workload name, a parse error quoting its bytes, a server's error text) must not forge a
// second log line, move the cursor or break a UTF-8 log reader.
#pragma once

#include <string>
#include <string_view>

namespace hil::sys {

// text with every control character (C0, DEL, C1 as UTF-8) and every byte that is not part of
// valid UTF-8 written as \xNN, and backslashes left as they are; valid UTF-8 (ä, µ, —) unchanged.
[[nodiscard]] std::string printable(std::string_view text);

}  // namespace hil::sys
