#include "hil/report/markup.hpp"

#include <array>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

namespace hil::report {

namespace {

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string escape_markdown(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '\n':
      case '\r':
        out += ' ';
        break;
      case '\\':
      case '|':
      case '*':
      case '`':
      case '[':
      case ']':
        out += '\\';
        out += c;
        break;
      case '_': {
        // Only an underscore at a word boundary can start or end emphasis; TCP_RR stays as is.
        const bool inside =
            i > 0 && i + 1 < text.size() && is_word(text[i - 1]) && is_word(text[i + 1]);
        if (!inside) out += '\\';
        out += c;
        break;
      }
      default:
        out += c;
    }
  }
  return out;
}

std::string escape_dokuwiki(std::string_view text) {
  static constexpr std::array<std::string_view, 16> markup{
      "|", "^", "**", "//", "__", "''", "[[", "]]", "{{", "}}", "<", ">", "%%", "\\\\", "~~", "(("};
  std::string flat;
  flat.reserve(text.size());
  for (const char c : text) flat += c == '\n' || c == '\r' ? ' ' : c;
  bool needs_nowiki = false;
  for (const auto m : markup) needs_nowiki = needs_nowiki || flat.find(m) != std::string::npos;
  if (!needs_nowiki) return flat;
  // "%%" cannot appear inside %%…%%; a space keeps the text readable.
  for (std::size_t at = flat.find("%%"); at != std::string::npos; at = flat.find("%%", at + 2)) {
    flat.replace(at, 2, "% %");
  }
  return "%%" + flat + "%%";
}

std::string format_number(double value) { return format_number(value, value); }

std::string format_number(double value, double magnitude) {
  if (!std::isfinite(value)) return "n/a";
  const double size = std::isfinite(magnitude) ? std::fabs(magnitude) : std::fabs(value);
  if (size >= 100 || size == 0) return fmt::format("{:.1f}", value);
  if (size >= 1) return fmt::format("{:.2f}", value);
  return fmt::format("{:.3f}", value);
}

std::size_t display_width(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
  return n;
}

}  // namespace hil::report
