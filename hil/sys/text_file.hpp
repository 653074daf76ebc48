// A small text file read whole (keys, users files), with a size bound so a wrong path (a device,
// a log) cannot take the process's memory.
#pragma once

#include <cstddef>
#include <string>

namespace hil::sys {

// The file's contents. Throws std::system_error naming the path and the cause when it cannot be
// opened or read, or (file_too_large) when it holds more than max_bytes.
[[nodiscard]] std::string read_text_file(const std::string& path, std::size_t max_bytes);

}  // namespace hil::sys
