// What a file crossing a console is checked and carried with: its SHA-256 (as sha256sum prints
// it) and base64 in lines (as base64(1) writes and reads them), both OpenSSL's libcrypto.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace hil::shell {

// The SHA-256 of bytes in lower-case hex, as sha256sum prints it.
[[nodiscard]] std::string sha256_hex(std::string_view bytes);

// bytes in base64, line_length characters a line (a multiple of 4), each line ending in '\n'.
[[nodiscard]] std::string base64_lines(std::string_view bytes, std::size_t line_length = 76);

// Whether line is all of the base64 alphabet (A–Z a–z 0–9 + / =) and not empty.
[[nodiscard]] bool is_base64_line(std::string_view line);

// What of a console line is base64(1)'s output: the line without a kernel message spliced into it
// (the console prints the kernel's messages wherever a program's output happens to be: "…ABCD[
// 12.345678] eth0: Link is Down", the rest of the program's line on the next one); empty when what
// is left is not base64 (a message without a timestamp, which the file's checksum then catches).
[[nodiscard]] std::string_view base64_fragment(std::string_view line);

// The bytes of base64 text without line ends; nullopt when it is not base64 (a length that is not
// a multiple of 4, a character outside the alphabet, padding in the middle).
[[nodiscard]] std::optional<std::string> from_base64(std::string_view text);

}  // namespace hil::shell
