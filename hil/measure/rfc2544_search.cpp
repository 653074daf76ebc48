#include "hil/measure/rfc2544_search.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace hil::measure {
namespace {

void check(const search_options& o) {
  if (!(o.max_fps > 0))
    throw std::invalid_argument("RFC 2544 search: the media maximum must be > 0");
  if (!(o.resolution > 0 && o.resolution < 1)) {
    throw std::invalid_argument("RFC 2544 search: the resolution must be a fraction in (0, 1)");
  }
  if (!(o.accepted_loss >= 0 && o.accepted_loss < 1)) {
    throw std::invalid_argument("RFC 2544 search: the accepted loss must be a ratio in [0, 1)");
  }
}

}  // namespace

bool kept_schedule(const trial_outcome& t, std::chrono::milliseconds duration, double tolerance) {
  const double due = t.offered_fps * std::chrono::duration<double>(duration).count();
  return static_cast<double>(t.sent) + 1 >= due * (1 - tolerance);
}

std::string tool_limited_words(const trial_outcome& t, frame_direction d) {
  return fmt::format("offered {:.0f} frames/s, sent {:.0f}: {}", t.offered_fps, t.sent_fps,
                     sender_limit_words(d));
}

bool trial_outcome::lost_beyond_port() const {
  return port_carried && *port_carried >= sent && *port_carried > received &&
         *port_carried - received > foreign_frame_allowance;
}

bool trial_outcome::loss_within_catch_up() const {
  return sender_overdue && sent > received && sent - received <= *sender_overdue;
}

bool lost_to_catch_up(const trial_outcome& t, double accepted_loss) {
  return t.loss_ratio() > accepted_loss && t.loss_within_catch_up();
}

const char* tester_end_name(tester_end e) {
  return e == tester_end::receiver ? "receiver" : "sender";
}

bool parse_tester_end(const std::string& word, tester_end& out) {
  if (word == "sender") {
    out = tester_end::sender;
  } else if (word == "receiver") {
    out = tester_end::receiver;
  } else {
    return false;
  }
  return true;
}

double need_point(double required_fps) {
  return required_fps > 0 ? std::floor(required_fps) + 1 : 0;
}

double trial_outcome::received_fps(std::chrono::milliseconds duration) const {
  const double seconds = std::chrono::duration<double>(duration).count();
  return seconds > 0 ? static_cast<double>(received) / seconds : 0;
}

std::optional<tester_ceiling> receiver_ceiling(const trial_outcome& t,
                                               std::chrono::milliseconds duration,
                                               double accepted_loss, double need_fps) {
  if (t.loss_ratio() <= accepted_loss || !t.lost_beyond_port()) return std::nullopt;
  return tester_ceiling{t.received_fps(duration), need_fps, tester_end::receiver};
}

point_outcome measure_point(const point_rule& rule, double fps, std::chrono::milliseconds duration,
                            bool confirmation, const trial_runner& run,
                            std::vector<trial_record>& trials) {
  double best_sent = 0;
  double best_received = 0;
  for (int attempt = 0;; ++attempt) {
    const trial_outcome out = run(fps, duration);
    const bool kept = kept_schedule(out, duration, rule.schedule_tolerance);
    const bool lossy = out.loss_ratio() > rule.accepted_loss;
    const bool passed = kept && !lossy;
    const bool burst = lost_to_catch_up(out, rule.accepted_loss);
    trials.push_back({out, duration, passed, confirmation, kept && !burst});
    best_sent = std::max(best_sent, out.sent_fps);
    const double counted_fps = out.received_fps(duration);
    best_received = std::max(best_received, counted_fps);
    // A probe whose sender stayed below the needed rate measured the tester, lossy or not.
    const bool sender_short = !kept && out.sent_fps < rule.required_fps;
    // Frames the port carried and the receiver did not count, where the verdict hangs on them: a
    // probe's receiver counting less than the need, or any loss at or below the rate the search
    // offers the need at (need_point).
    const bool receiver_short =
        lossy && out.lost_beyond_port() &&
        (counted_fps < rule.required_fps || fps <= need_point(rule.need_fps));
    // A short trial is measured again even when it lost frames: a sender that stalled catches up
    // in bursts above the offered rate, and a port's queue may lose what it would carry paced
    // (as it may a kept trial's catch-up: burst).
    if (!sender_short && !receiver_short && kept && !burst)
      return {trials.back(), std::nullopt, std::nullopt};
    if (attempt == rule.invalid_retries) {
      // A sender below the need is the first limit: a better receiver would not lift it.
      if (best_sent < rule.required_fps) {
        return {std::nullopt, std::nullopt, tester_ceiling{best_sent, rule.required_fps}};
      }
      if (receiver_short) {
        return {std::nullopt, std::nullopt,
                tester_ceiling{best_received, std::max(rule.required_fps, rule.need_fps),
                               tester_end::receiver}};
      }
      // Short or behind every time, and still lossy: the port lost frames at no more than the
      // offered rate.
      if (lossy) return {trials.back(), std::nullopt, std::nullopt};
      return {std::nullopt, tool_limited_words(out, rule.direction), std::nullopt, best_sent};
    }
  }
}

std::optional<tester_ceiling> ceiling_unless_capped(const point_outcome& p, double fps,
                                                    double required_fps, bool need_shown) {
  const double need = need_point(required_fps);
  if (fps > need && (need_shown || p.best_sent_fps >= need)) return std::nullopt;
  return tester_ceiling{p.best_sent_fps, required_fps};
}

namespace {

// How one point of the search ended: it passed or failed, the sender could not offer it above a
// rate the verdict rests on (capped: the top of what this bench offers), or the search stops.
enum class point_end { passed, failed, capped, stop };

}  // namespace

search_result find_throughput(const search_options& o, const trial_runner& run) {
  check(o);
  search_result r;
  double lo = 0;
  double hi = o.max_fps;
  const double step = o.resolution * o.max_fps;
  const double need = need_point(o.required_fps);
  double sender_best = 0;  // the best rate a capped point's sender reached
  // A point that lost frames at or below the need: the port cannot carry what the verdict needs,
  // whatever the sender offers above or between, so a short sender no longer hides the verdict.
  bool failed_at_need = false;
  // One point (measure_point's rule); a stop leaves in r why.
  const auto trial = [&](double fps, bool confirmation, double required_fps = 0) {
    const point_rule rule{o.accepted_loss, o.schedule_tolerance, o.invalid_retries,
                          o.direction,     required_fps,         o.required_fps};
    const auto duration = confirmation ? o.confirm_duration : o.trial_duration;
    auto p = measure_point(rule, fps, duration, confirmation, run, r.trials);
    if (p.counted) {
      if (p.counted->passed) return point_end::passed;
      failed_at_need = failed_at_need || (need > 0 && fps <= need);
      return point_end::failed;
    }
    // With a need, a sender short without loss caps the search above the need once it offered
    // the need (passed there, or reached it unpaced at the first trial): the verdict rests on the
    // rates below, which it can offer. It caps it anywhere once the port lost frames at or below
    // the need: the verdict is known, the figure a lower bound. Else it cannot offer the need:
    // not measurable.
    if (p.tool_limited && need > 0) {
      if (!failed_at_need) {
        r.not_measurable = ceiling_unless_capped(p, fps, o.required_fps, lo >= need);
        if (r.not_measurable) return point_end::stop;
      }
      sender_best = std::max(sender_best, p.best_sent_fps);
      return point_end::capped;
    }
    r.tool_limited = std::move(p.tool_limited);
    r.not_measurable = p.not_measurable;
    return point_end::stop;
  };
  const auto budget_left = [&] { return static_cast<int>(r.trials.size()) < o.max_trials; };
  // The answer: lo, a lower bound of the port's when the rate above it was the sender's cap.
  bool hi_capped = false;
  const auto answer = [&] {
    r.throughput_fps = lo;
    if (hi_capped) r.sender_ceiling_fps = sender_best;
    return r;
  };

  bool long_trials = false;  // after a failed confirmation every trial is confirmation-length
  const auto first = trial(o.max_fps, false, o.required_fps);
  if (first == point_end::stop) return r;
  if (first == point_end::passed) lo = o.max_fps;
  hi_capped = first == point_end::capped;
  for (;;) {
    while (hi - lo > step && budget_left()) {
      // The rate the verdict needs, while it lies between the last pass and the first fail: the
      // answer's side of the limit then rests on a trial at the limit, not on a neighbour.
      const bool need_open = need > 0 && need > lo && need < hi;
      const double mid = need_open ? need : (lo + hi) / 2;
      const auto end = trial(mid, long_trials);
      if (end == point_end::stop) return r;
      if (end == point_end::passed) {
        lo = mid;
      } else {
        hi = mid;
        hi_capped = end == point_end::capped;
      }
    }
    if (lo <= 0 || !budget_left()) return r;  // nothing passed (above the resolution)
    if (long_trials) return answer();         // it passed at the confirmation's length
    const auto confirmed = trial(lo, true);
    if (confirmed == point_end::stop) return r;
    if (confirmed == point_end::passed) return answer();
    // The longer trial lost frames where the short ones did not (a queue that fills slowly), or
    // its sender could not keep lo that long: search below it again, with trials as long as the
    // confirmation.
    long_trials = true;
    hi = lo;
    hi_capped = confirmed == point_end::capped;
    lo = 0;
  }
}

std::optional<tester_ceiling> probe_ceiling(double required_fps, int retries,
                                            std::chrono::milliseconds length,
                                            const std::function<trial_outcome()>& probe) {
  double best_sent = 0;
  double best_received = 0;
  for (int attempt = 0; attempt <= retries; ++attempt) {
    const trial_outcome out = probe();
    best_sent = std::max(best_sent, out.sent_fps);
    const double counted_fps = out.received_fps(length);
    best_received = std::max(best_received, counted_fps);
    const bool receiver_short = out.lost_beyond_port() && counted_fps < required_fps;
    if (out.sent_fps >= required_fps && !receiver_short) return std::nullopt;
  }
  // A sender below the need is the first limit; one that reached it was let down by its receiver.
  if (best_sent < required_fps) return tester_ceiling{best_sent, required_fps};
  return tester_ceiling{best_received, required_fps, tester_end::receiver};
}

}  // namespace hil::measure
