// How deeply JSON text nests, found before any parser sees it. nlohmann's parser keeps its own
// stack, but dump(), comparisons and error texts recurse once per level, so a 400 kB message of
// 200,000 nested arrays would overflow the stack of whatever touched it. Every decoder of input
// from outside (a peer's messages, a results file, a stock tool's -J output) checks the depth
// first and refuses anything deeper than json_depth_limit.
#pragma once

#include <cstddef>
#include <string_view>

namespace hil::sys {

// Where a left-to-right scan of JSON text stands: inside a string literal or not (escapes
// honoured). For scans that must skip what strings contain (brackets, "nan").
class json_string_scan {
 public:
  // Takes the next character; true when it belongs to a string literal, its quotes included.
  bool in_string(char c) noexcept {
    if (inside_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        inside_ = false;
      }
      return true;
    }
    inside_ = c == '"';
    return inside_;
  }

 private:
  bool inside_ = false;
  bool escaped_ = false;  // the previous character inside the string was a backslash
};

// Deeper than any document a peer or a tool of ours writes (iperf3's -J output nests 6 levels),
// far below where a recursion could exhaust a thread's stack; cJSON (iperf3) allows 1,000.
inline constexpr std::size_t json_depth_limit = 128;

// The deepest nesting of arrays and objects in text, counting brackets outside strings only
// (escapes honoured); in one pass, without recursion. Stops as soon as the depth exceeds limit
// and returns limit + 1 then. Malformed text is not judged here: the parser does that.
[[nodiscard]] std::size_t json_nesting_depth(std::string_view text,
                                             std::size_t limit = json_depth_limit) noexcept;

// True when text nests deeper than limit.
[[nodiscard]] inline bool json_too_deep(std::string_view text,
                                        std::size_t limit = json_depth_limit) noexcept {
  return json_nesting_depth(text, limit) > limit;
}

}  // namespace hil::sys
