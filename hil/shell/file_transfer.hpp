// Files between the runner and a Linux board through the shell at its console (shell_session):
// the case binary and its profile there, its JSON records and gtest report back. Nothing but
// the console is needed: no network, no ssh, no scp; the board needs head, base64 and sha256sum
// (BusyBox has them).
//
//   put:  board's sha256sum of <remote> = the content's? ──yes──▶ nothing sent
//         no ──▶ echo ready; head -c <N> | base64 -d > <remote>.part
//            ◀── ready ──▶ the content in base64, 76 characters a line (N bytes in all)
//            ──▶ sha256sum of <remote>.part = the content's? ──yes──▶ chmod, mv into place
//                                                            no ──▶ removed; shell_error
//   get:  [ -f <remote> ] ──▶ sha256sum < <remote>; base64 < <remote>
//         ◀── the sum, then lines of base64; a line outside the alphabet (a kernel message on
//             the console) is left out ──▶ decoded, checked against the sum; asked once more when
//             it differs
//
// A file is never replaced by a copy that differs from what was sent, and never read back
// changed: the sum is checked at both ends.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "hil/shell/shell_session.hpp"

namespace hil::shell {

enum class put_outcome { sent, already_there };

// Places content at remote (an absolute path whose directory exists) with mode (e.g. 0700)
// unless the file there already has content's SHA-256. Throws shell_error when the board lacks a
// tool it needs (naming it) or the copy arrived changed (both sums named; remote is then left as
// it was), and what shell_session::run throws.
put_outcome put_file(shell_session& shell, std::string_view content, std::string_view remote,
                     unsigned mode, clock::time_point deadline);

// The content of remote, nullopt when there is no such file. Throws shell_error when it is larger
// than max_bytes or arrives changed twice (both sums named), and what shell_session::run throws.
std::optional<std::string> get_file(shell_session& shell, std::string_view remote,
                                    clock::time_point deadline, std::size_t max_bytes = 64 << 20);

}  // namespace hil::shell
