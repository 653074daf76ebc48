#include "hil/sys/thread_sched.hpp"

#include <exception>
#include <string>

#include "hil/sys/proc_text.hpp"
#include "hil/sys/text_file.hpp"

namespace hil::sys {

std::optional<thread_sched_times> parse_thread_schedstat(std::string_view text) {
  const auto on_cpu = leading_number(text);
  const auto gap = text.find(' ');
  if (!on_cpu || gap == std::string_view::npos) return std::nullopt;
  const auto waiting = leading_number(text.substr(gap));
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
