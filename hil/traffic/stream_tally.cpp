#include "hil/traffic/stream_tally.hpp"

#include <sys/socket.h>

#include <cerrno>

namespace hil::traffic {
namespace {

using namespace std::chrono_literals;

double seconds_between(interval_tally::clock::time_point a, interval_tally::clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

constexpr std::size_t read_size = 128 * 1024;  // the most one read takes

}  // namespace

interval_tally::interval_tally(clock::time_point t0) : t0_(t0), start_(t0), next_(t0 + 1s) {}

void interval_tally::add(clock::time_point now, std::uint64_t bytes, std::uint64_t packets) {
  close_until(now);
  bytes_ += bytes;
  packets_ += packets;
}

std::vector<measure::interval_sample> interval_tally::finish(clock::time_point end) {
  close_until(end);
  if (end > start_) push(end);
  return std::move(out_);
}

void interval_tally::close_until(clock::time_point now) {
  while (now >= next_) {
    push(next_);
    next_ += 1s;
  }
}

void interval_tally::push(clock::time_point end) {
  measure::stream_interval s;
  s.id = 1;
  s.start_s = seconds_between(t0_, start_);
  s.end_s = seconds_between(t0_, end);
  s.bytes = bytes_;
  s.packets = packets_;
  out_.push_back({{s}});
  start_ = end;
  bytes_ = packets_ = 0;
}

stream_receiver::stream_receiver(clock::time_point t0, std::uint64_t already)
    : tally_(t0), bytes_(already), buf_(read_size) {
  tally_.add(t0, already, 0);
}

bool stream_receiver::read_available(int fd) {
  for (;;) {
    const ssize_t n = ::recv(fd, buf_.data(), buf_.size(), MSG_DONTWAIT);
    if (n > 0) {
      bytes_ += static_cast<std::uint64_t>(n);
      tally_.add(clock::now(), static_cast<std::uint64_t>(n), 0);
      return false;
    }
    if (n == 0) return true;  // the peer closed its end
    if (errno == EINTR) continue;
    return errno != EAGAIN;  // EAGAIN: nothing waits after all; anything else (a reset) ends it
  }
}

}  // namespace hil::traffic
