#include "hil/sys/error.hpp"

#include <cerrno>
#include <cstdio>

namespace hil::sys {

void throw_errno(int err, const std::string& what) {
  throw std::system_error(err, std::system_category(), what);
}

void throw_last_errno(const std::string& what) { throw_errno(errno, what); }

void report_destructor_failure(std::string_view where, std::string_view what) noexcept {
  // fprintf, not iostreams: it cannot throw and works during static destruction.
  std::fprintf(stderr, "hilperf: %.*s: %.*s\n", static_cast<int>(where.size()), where.data(),
               static_cast<int>(what.size()), what.data());
}

}  // namespace hil::sys
