#include "hil/sys/thread_sched.hpp"

#include <charconv>
#include <cstdint>
#include <exception>
#include <string>

#include "hil/sys/text_file.hpp"

namespace hil::sys {

namespace {

// One unsigned decimal field of text from pos, skipping the spaces before it; advances pos.
std::optional<std::uint64_t> field(std::string_view text, std::size_t& pos) {
  while (pos < text.size() && text[pos] == ' ') ++pos;
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), v);
  if (ec != std::errc() || end == text.data() + pos) return std::nullopt;
  pos = static_cast<std::size_t>(end - text.data());
  return v;
}

}  // namespace

std::optional<thread_sched_times> parse_thread_schedstat(std::string_view text) {
  std::size_t pos = 0;
  const auto on_cpu = field(text, pos);
  if (!on_cpu) return std::nullopt;
  const auto waiting = field(text, pos);
  if (!waiting) return std::nullopt;
  return thread_sched_times{std::chrono::nanoseconds(*on_cpu), std::chrono::nanoseconds(*waiting)};
}

std::optional<thread_sched_times> this_thread_sched_times() noexcept {
  try {
    return parse_thread_schedstat(read_text_file("/proc/thread-self/schedstat", 256));
  } catch (const std::exception&) {
    return std::nullopt;  // no schedstat in this kernel, or no /proc
  }
}

}  // namespace hil::sys
