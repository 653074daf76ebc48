#include "hil/console/transcript.hpp"

#include <fmt/format.h>

namespace hil::console {

std::string escaped(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\x1b':
        out += "\\e";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out += fmt::format("\\x{:02x}", u);
        } else {
          out.push_back(c);
        }
    }
  }
  return out;
}

transcript::transcript(std::size_t max_bytes, clock::time_point start)
    : max_bytes_(max_bytes), start_(start) {}

void transcript::sent(std::string_view bytes, clock::time_point at) {
  add('>', escaped(bytes), at);
}

void transcript::received(std::string_view bytes, clock::time_point at) {
  add('<', escaped(bytes), at);
}

void transcript::note(std::string_view text, clock::time_point at) { add('#', text, at); }

void transcript::add(char direction, std::string_view body, clock::time_point at) {
  if (full_) return;
  const double seconds = std::chrono::duration<double>(at - start_).count();
  std::string entry = fmt::format("[{:8.3f} {}] {}\n", seconds, direction, body);
  if (text_.size() + entry.size() > max_bytes_) {
    text_ += fmt::format("[{:8.3f} #] the rest of the console log is left out ({} bytes kept)\n",
                         seconds, text_.size());
    full_ = true;
    return;
  }
  text_ += entry;
}

}  // namespace hil::console
