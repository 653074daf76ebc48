// What a console has said, as text a pattern can match, and how far a case has read it.
//
//   raw bytes ──▶ ansi_filter ──▶ line endings: CR LF, lone CR → LF ──▶ unread text ──take()──▶
//   match
//                                                                              │
//                                                                last_line() ◀─┘ (for messages)
//
// take() looks for the earliest match of any of its patterns in the unread text and reads the
// text up to the match's end: the next expectation sees only what came after, as a person's eye
// moves down a terminal. Lines the firmware logs between prompts stay in the unread text until
// read past, so a result line is found wherever a log line lands (a pattern, never "the line after
// the prompt"). The unread text is bounded (window bytes; the oldest dropped first), so a console
// that never stops talking costs a fixed amount of memory; the whole of it goes to the case's
// console log, which the session keeps, not here.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hil/console/ansi_filter.hpp"
#include "hil/console/pattern.hpp"

namespace hil::console {

// What take() found: which pattern (its index), the unread text before the match, the matched
// text and a regex's groups.
struct expect_match {
  std::size_t pattern = 0;
  std::string before;
  std::string matched;
  std::vector<std::string> groups;
};

class expect_buffer {
 public:
  static constexpr std::size_t default_window = 64 * 1024;

  // Keeps at most window bytes of unread text; throws std::invalid_argument for 0.
  explicit expect_buffer(std::size_t window = default_window);

  // Appends what the console sent (any split: a control sequence or a CR LF across two calls is
  // handled whole).
  void feed(std::string_view raw);

  // The earliest match of any pattern in the unread text (at the same offset, the first pattern
  // given), the text through it read; nullopt, nothing read, when none matches yet.
  [[nodiscard]] std::optional<expect_match> take(std::span<const pattern> patterns);

  // The text received and not yet read.
  [[nodiscard]] std::string_view unread() const { return unread_; }

  // Reads everything received so far (a case that starts afresh after a reset, say).
  void read_all() { unread_.clear(); }

  // The last line with any text on it received, read or not, without its line end (the line in
  // progress when it has text): what a failure message quotes.
  [[nodiscard]] std::string last_line() const;

 private:
  void append(char c);

  ansi_filter filter_;
  std::size_t window_;
  bool held_cr_ = false;  // a CR ended the last chunk: a LF may follow
  std::string unread_;
  std::string line_;       // the line in progress
  std::string last_line_;  // the last complete line with text
};

}  // namespace hil::console
