// The raw console log of a case: what was sent and received, when, in order, as a person reads it
// after a failure (and as the case's JUnit report attaches it). Each entry is one write or one read
// as it came, prefixed with the seconds since the transcript began and its direction:
//
//   [   0.000 >] iperf -c 198.18.0.195 -u -b 27 -t 10\n
//   [   0.004 <] iperf -c 198.18.0.195 -u -b 27 -t 10\n\e[36mw61/>\e[0m
//
// Bytes a terminal acts on are written escaped (\n, \r, \e, \xNN), so the log shows exactly what
// crossed the wire. It is bounded: past max_bytes only a note that the rest was left out is kept.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace hil::console {

class transcript {
 public:
  using clock = std::chrono::steady_clock;
  static constexpr std::size_t default_max_bytes = 1 << 20;

  explicit transcript(std::size_t max_bytes = default_max_bytes,
                      clock::time_point start = clock::now());

  void sent(std::string_view bytes, clock::time_point at = clock::now());
  void received(std::string_view bytes, clock::time_point at = clock::now());
  // A line of hilperf's own ("abort sent: no end marker within 25 s").
  void note(std::string_view text, clock::time_point at = clock::now());

  [[nodiscard]] const std::string& text() const noexcept { return text_; }

 private:
  void add(char direction, std::string_view body, clock::time_point at);

  std::size_t max_bytes_;
  clock::time_point start_;
  std::string text_;
  bool full_ = false;
};

// bytes with \n, \r, \t, ESC, backslash and other control bytes escaped: printable on one line.
[[nodiscard]] std::string escaped(std::string_view bytes);

}  // namespace hil::console
