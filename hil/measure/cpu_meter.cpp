#include "hil/measure/cpu_meter.hpp"

#include <sys/resource.h>

#include <stdexcept>
#include <utility>

#include "hil/sys/error.hpp"

namespace hil::measure {

namespace {

std::chrono::nanoseconds to_duration(const timeval& tv) {
  return std::chrono::seconds(tv.tv_sec) + std::chrono::microseconds(tv.tv_usec);
}

double percent_of(std::chrono::nanoseconds part, std::chrono::nanoseconds whole) {
  return static_cast<double>(part.count()) / static_cast<double>(whole.count()) * 100.0;
}

}  // namespace

cpu_meter::cpu_meter(sampler s) : sampler_(std::move(s)) {
  if (!sampler_) throw std::invalid_argument("cpu_meter: the sampler is empty");
  start_ = sampler_();
}

// iperf3 takes total from clock() (CLOCK_PROCESS_CPUTIME_ID) and user/system from getrusage, so
// its total can differ slightly from user + system; here total is their sum by construction.
cpu_usage cpu_meter::usage() const {
  const cpu_times now = sampler_();
  const auto wall = now.wall - start_.wall;
  if (wall.count() <= 0) return cpu_usage{};
  const auto user = now.user - start_.user;
  const auto system = now.system - start_.system;
  cpu_usage u;
  u.user = percent_of(user, wall);
  u.system = percent_of(system, wall);
  u.total = percent_of(user + system, wall);
  return u;
}

cpu_meter::sampler cpu_meter::real_sampler() {
  return [] {
    rusage ru{};
    if (getrusage(RUSAGE_SELF, &ru) != 0) {
      sys::throw_last_errno("cpu_meter: getrusage(RUSAGE_SELF) failed");
    }
    cpu_times t;
    t.wall = std::chrono::steady_clock::now().time_since_epoch();
    t.user = to_duration(ru.ru_utime);
    t.system = to_duration(ru.ru_stime);
    return t;
  };
}

}  // namespace hil::measure
