#include "hil/sys/printable.hpp"

#include <cstdint>

namespace hil::sys {
namespace {

void escape(std::string& out, unsigned char b) {
  constexpr char hex[] = "0123456789abcdef";
  out += "\\x";
  out += hex[b >> 4];
  out += hex[b & 0x0f];
}

// The length of the valid UTF-8 sequence at text[i] (2 to 4), or 0 when it is not one (overlong
// forms, surrogates and code points above U+10FFFF are not valid).
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    n = 2;
    cp = b0 & 0x1fU;
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    n = 3;
    cp = b0 & 0x0fU;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    n = 4;
    cp = b0 & 0x07U;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(text[i + k]);
    if ((b & 0xc0U) != 0x80U) return 0;
    cp = (cp << 6U) | (b & 0x3fU);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
      (cp >= 0xd800 && cp <= 0xdfff)) {
    return 0;
  }
  if (cp >= 0x80 && cp <= 0x9f) return 0;  // C1 controls
  return n;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7f) {
      out += static_cast<char>(b);
      ++i;
      continue;
    }
    if (b >= 0x80) {
      if (const auto n = utf8_length(text, i); n > 0) {
        out.append(text.substr(i, n));
        i += n;
        continue;
      }
    }
    escape(out, b);
    ++i;
  }
  return out;
}

}  // namespace hil::sys
