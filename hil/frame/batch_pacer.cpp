#include "hil/frame/batch_pacer.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>

namespace hil::frame {
namespace {

using mono = std::chrono::steady_clock;  // CLOCK_MONOTONIC
using namespace std::chrono_literals;

double thread_cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_THREAD, &u);
  const auto s = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return s(u.ru_utime) + s(u.ru_stime);
}

// Sleeps until shortly before t (when it is far), then spins to it.
void wait_until(mono::time_point t) {
  constexpr auto spin = 200us;
  if (t - mono::now() > spin) {
    const auto wake = (t - spin / 4).time_since_epoch();
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(std::chrono::duration_cast<std::chrono::seconds>(wake).count());
    ts.tv_nsec = static_cast<long>((wake - std::chrono::seconds(ts.tv_sec)).count());
    ::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
  }
  while (mono::now() < t) {
  }
}

}  // namespace

double pace_result::accepted_per_second() const {
  return seconds > 0 ? static_cast<double>(accepted) / seconds : 0;
}

double pace_result::link_per_second() const {
  return seconds > 0 ? static_cast<double>(tx_packets) / seconds : 0;
}

double pace_result::cpu_per_million() const {
  return accepted > 0 ? cpu_seconds / (static_cast<double>(accepted) / 1e6) : 0;
}

bool pace_result::schedule_kept(double tolerance) const {
  if (scheduled == 0) return false;
  const double least = static_cast<double>(scheduled) * (1 - tolerance);
  return static_cast<double>(accepted) >= least && static_cast<double>(tx_packets) >= least;
}

std::chrono::nanoseconds due_after(std::uint64_t i, double rate) {
  return std::chrono::nanoseconds(
      static_cast<std::int64_t>(std::llround(static_cast<double>(i) * 1e9 / rate)));
}

pace_result run_paced(frame_sender& sender, link::link_control& link, const pace_plan& plan) {
  pace_result r;
  r.path = path_name(sender.path());
  r.mode = sender.mode();
  r.batch = plan.batch;
  r.frames_per_second = plan.frames_per_second;
  const bool paced = plan.frames_per_second > 0;
  const double window = std::chrono::duration<double>(plan.duration).count();
  std::uint64_t target = std::numeric_limits<std::uint64_t>::max();
  if (paced) target = static_cast<std::uint64_t>(std::floor(plan.frames_per_second * window));
  if (plan.frame_limit > 0) target = std::min(target, plan.frame_limit);
  if (paced) r.scheduled = target;
  const auto batch_period =
      paced ? due_after(plan.batch, plan.frames_per_second) : std::chrono::nanoseconds(0);
  const link::link_counters before = link.counters(sender.interface());
  const send_counts start = sender.counts();
  const double cpu0 = thread_cpu_seconds();
  const auto t0 = mono::now();
  const auto end = t0 + plan.duration;
  std::uint64_t sent = 0;
  // A late sender catches up at no more than twice the rate: a batch is released no sooner than
  // half a batch period after the last one.
  auto not_before = t0;
  for (;;) {
    if (sent >= target) break;
    auto now = mono::now();
    if (now >= end) break;
    if (paced) {
      const auto scheduled = t0 + due_after(sent, plan.frames_per_second);
      const auto due = std::max(scheduled, not_before);
      if (now < due) {
        wait_until(std::min(due, end));
        now = mono::now();
        if (now >= end) break;
      } else {
        if (now - scheduled > batch_period) ++r.late_batches;
        const auto elapsed = std::chrono::duration<double>(now - t0).count();
        // Frames due strictly before now, the batch's first (due now at the earliest) aside.
        const auto due_before = std::min<std::uint64_t>(
            target, static_cast<std::uint64_t>(elapsed * plan.frames_per_second));
        r.most_overdue = std::max(r.most_overdue, due_before - std::min(due_before, sent));
      }
    }
    const auto want =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(plan.batch, target - sent));
    sent += sender.send(want);
    ++r.batches;
    if (paced) not_before = now + batch_period / 2;
  }
  const auto t1 = mono::now();
  r.cpu_seconds = thread_cpu_seconds() - cpu0;
  // Paced, the window is the schedule's span (its last batch is due before it ends); unpaced,
  // the time the loop ran.
  r.seconds = paced ? static_cast<double>(target) / plan.frames_per_second
                    : std::chrono::duration<double>(t1 - t0).count();
  const send_counts in_window = sender.counts();
  r.drained = sender.drain(1000ms);
  const send_counts after = sender.counts();
  r.accepted = in_window.accepted - start.accepted;
  r.completed = after.completed - start.completed;
  r.refused = after.refused - start.refused;
  const auto d = link::delta(before, link.counters(sender.interface()));
  r.tx_packets = d.growth.tx_packets;
  r.tx_dropped = d.growth.tx_dropped;
  return r;
}

}  // namespace hil::frame
