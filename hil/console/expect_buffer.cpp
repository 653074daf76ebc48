#include "hil/console/expect_buffer.hpp"

#include <algorithm>
#include <stdexcept>

namespace hil::console {
namespace {

// How much of the line in progress last_line() keeps: a console line is far shorter, and one
// that never ends must not grow without bound.
constexpr std::size_t line_limit = 1024;

bool has_text(std::string_view line) {
  return std::ranges::any_of(line, [](char c) { return c != ' ' && c != '\t'; });
}

}  // namespace

expect_buffer::expect_buffer(std::size_t window) : window_(window) {
  if (window == 0) throw std::invalid_argument("a console buffer of 0 bytes");
}

void expect_buffer::feed(std::string_view raw) {
  for (const char c : filter_.feed(raw)) {
    if (held_cr_) {
      held_cr_ = false;
      append('\n');  // CR LF, or a lone CR: one line end either way
      if (c == '\n') continue;
    }
    if (c == '\r') {
      held_cr_ = true;
      continue;
    }
    append(c);
  }
  if (unread_.size() > window_) unread_.erase(0, unread_.size() - window_);
}

void expect_buffer::append(char c) {
  unread_.push_back(c);
  if (c != '\n') {
    if (line_.size() < line_limit) line_.push_back(c);
    return;
  }
  if (has_text(line_)) last_line_ = line_;
  line_.clear();
}

std::optional<expect_match> expect_buffer::take(std::span<const pattern> patterns) {
  std::optional<found> best;
  std::size_t which = 0;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    auto f = patterns[i].find(unread_);
    if (f && (!best || f->position < best->position)) {
      best = std::move(f);
      which = i;
    }
  }
  if (!best) return std::nullopt;
  expect_match m{which, unread_.substr(0, best->position),
                 unread_.substr(best->position, best->length), std::move(best->groups)};
  unread_.erase(0, best->position + best->length);
  return m;
}

std::string expect_buffer::last_line() const { return has_text(line_) ? line_ : last_line_; }

}  // namespace hil::console
