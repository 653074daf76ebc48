#include "hil/traffic/flow.hpp"

#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>

#include <cerrno>
#include <random>
#include <vector>

#include "hil/iperf3/wire.hpp"
#include "hil/measure/pacing.hpp"

namespace hil::traffic {
namespace {

using clock = std::chrono::steady_clock;

// A block of pseudo-random payload (iperf3 fills its buffer once with random bytes).
std::vector<std::uint8_t> random_block(std::size_t size, std::uint64_t seed) {
  std::vector<std::uint8_t> block(size);
  std::mt19937_64 rng(seed);
  for (auto& b : block) b = static_cast<std::uint8_t>(rng());
  return block;
}

// Sleeps until t on CLOCK_MONOTONIC (steady_clock's clock on Linux), with no timer slack.
void sleep_until(clock::time_point t) {
  const auto ns = t.time_since_epoch().count();
  timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

// The UDP header's timestamp: CLOCK_MONOTONIC as seconds and microseconds, like iperf3.
iperf3::udp_header stamp(clock::time_point now, std::uint64_t seq) {
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch());
  return {static_cast<std::uint32_t>(us.count() / 1'000'000),
          static_cast<std::uint32_t>(us.count() % 1'000'000), seq};
}

// Errors a blocked or refused send/recv reports without the flow being broken.
bool transient(int err) {
  return err == EAGAIN || err == EINTR || err == ENOBUFS ||
         err == ECONNREFUSED;  // UDP: an ICMP port unreachable from before the peer listened
}

}  // namespace

flow::flow(sys::unique_fd fd, int family, flow_config config)
    : fd_(std::move(fd)), family_(family), config_(config) {
  set_io_timeouts(fd_.get(), io_timeout_ms);
}

flow::~flow() {
  request_stop();
  join();
}

void flow::start() {
  worker_ = std::jthread([this](const std::stop_token& stop) { run(stop); });
}

void flow::request_stop() noexcept { worker_.request_stop(); }

void flow::join() {
  if (worker_.joinable()) worker_.join();
}

void flow::close() noexcept { fd_.reset(); }

flow_sample flow::sample() const {
  flow_sample s;
  s.bytes = bytes_.load(std::memory_order_relaxed);
  s.packets = packets_.load(std::memory_order_relaxed);
  if (config_.proto == measure::protocol::udp && config_.role == flow_role::receive) {
    const std::lock_guard lock(udp_mutex_);
    s.udp = udp_stats_.snapshot();
  }
  if (config_.proto == measure::protocol::tcp && config_.role == flow_role::send && fd_) {
    s.tcp = read_tcp_info(fd_.get());
  }
  return s;
}

std::error_code flow::error() const {
  const int err = error_.load();
  return err == 0 ? std::error_code() : std::error_code(err, std::system_category());
}

void flow::fail(int err) {
  int expected = 0;
  error_.compare_exchange_strong(expected, err);
}

bool flow::within_limits(std::uint64_t n) const {
  if (config_.byte_limit != 0 && bytes_.load(std::memory_order_relaxed) + n > config_.byte_limit) {
    return bytes_.load(std::memory_order_relaxed) < config_.byte_limit;  // a last partial block
  }
  return config_.block_limit == 0 || packets_.load(std::memory_order_relaxed) < config_.block_limit;
}

void flow::run(const std::stop_token& stop) {
  // Pacing decisions are microseconds apart: the default 50 µs timer slack would smear them.
  ::prctl(PR_SET_TIMERSLACK, 1UL);
  const bool udp = config_.proto == measure::protocol::udp;
  if (config_.role == flow_role::send) {
    udp ? udp_send(stop) : tcp_send(stop);
  } else {
    udp ? udp_receive(stop) : tcp_receive(stop);
  }
}

void flow::tcp_send(const std::stop_token& stop) {
  const auto block = random_block(config_.block_len, config_.payload_seed);
  const bool paced = config_.bitrate_bps != 0;
  const auto start = clock::now();
  const measure::pacer pacer(paced ? config_.bitrate_bps : 1, config_.block_len, start);
  std::uint64_t blocks = 0;
  auto last = start;
  while (!stop.stop_requested()) {
    if (!within_limits(block.size())) break;
    if (paced) {
      const auto due = pacer.next_due(blocks, last);
      if (due > clock::now()) sleep_until(due);
    }
    std::size_t n = block.size();
    if (config_.byte_limit != 0) n = std::min<std::uint64_t>(n, config_.byte_limit - bytes_.load());
    const ssize_t sent = ::send(fd_.get(), block.data(), n, MSG_NOSIGNAL);
    if (sent < 0) {
      if (transient(errno)) continue;
      fail(errno);
      return;
    }
    last = clock::now();
    ++blocks;
    bytes_.fetch_add(static_cast<std::uint64_t>(sent), std::memory_order_relaxed);
    packets_.fetch_add(1, std::memory_order_relaxed);
  }
  finished_ = true;
}

void flow::tcp_receive(const std::stop_token& stop) {
  std::vector<std::uint8_t> buf(std::max<std::size_t>(config_.block_len, 256 * 1024));
  while (!stop.stop_requested()) {
    const ssize_t n = ::recv(fd_.get(), buf.data(), buf.size(), 0);
    if (n == 0) break;  // the sender closed its end
    if (n < 0) {
      if (transient(errno)) continue;
      fail(errno);
      return;
    }
    bytes_.fetch_add(static_cast<std::uint64_t>(n), std::memory_order_relaxed);
  }
  finished_ = true;
}

void flow::udp_send(const std::stop_token& stop) {
  auto block = random_block(config_.block_len, config_.payload_seed);
  const bool wide = config_.counters_64bit;
  const auto start = clock::now();
  const bool paced = config_.bitrate_bps != 0;
  const measure::pacer pacer(paced ? config_.bitrate_bps : 1, config_.block_len, start);
  std::uint64_t k = 0;  // datagrams sent; the next sequence number is k + 1
  auto last = start;
  while (!stop.stop_requested()) {
    if (!within_limits(block.size())) break;
    if (paced) {
      const auto due = pacer.next_due(k, last);
      if (due > clock::now()) sleep_until(due);
    }
    last = clock::now();
    iperf3::encode_udp_header(block, stamp(last, k + 1), wide);
    const ssize_t sent = ::send(fd_.get(), block.data(), block.size(), 0);
    if (sent < 0) {
      if (transient(errno)) continue;  // the sequence number is reused: no false gap
      fail(errno);
      return;
    }
    ++k;
    bytes_.fetch_add(static_cast<std::uint64_t>(sent), std::memory_order_relaxed);
    packets_.fetch_add(1, std::memory_order_relaxed);
  }
  finished_ = true;
}

void flow::udp_receive(const std::stop_token& stop) {
  constexpr std::size_t batch = 64;
  const std::size_t slot = std::max<std::size_t>(config_.block_len, 2048);
  std::vector<std::uint8_t> buf(batch * slot);
  std::array<iovec, batch> iov{};
  std::array<mmsghdr, batch> msgs{};
  for (std::size_t i = 0; i < batch; ++i) {
    iov[i] = {buf.data() + i * slot, slot};
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
  }
  const bool wide = config_.counters_64bit;
  while (!stop.stop_requested()) {
    const int n = ::recvmmsg(fd_.get(), msgs.data(), batch, MSG_WAITFORONE, nullptr);
    if (n < 0) {
      if (transient(errno)) continue;
      fail(errno);
      return;
    }
    const auto arrived = clock::now().time_since_epoch();
    std::uint64_t got_bytes = 0;
    const std::lock_guard lock(udp_mutex_);
    for (int i = 0; i < n; ++i) {
      const std::size_t len = msgs[static_cast<std::size_t>(i)].msg_len;
      const auto header = iperf3::decode_udp_header(
          std::span<const std::uint8_t>(buf.data() + static_cast<std::size_t>(i) * slot, len),
          wide);
      if (!header) continue;  // shorter than a header: not a data datagram
      const auto sent = std::chrono::seconds(header->sec) + std::chrono::microseconds(header->usec);
      udp_stats_.on_datagram(header->seq, sent, arrived, len, wide);
      got_bytes += len;
    }
    bytes_.fetch_add(got_bytes, std::memory_order_relaxed);
    packets_.fetch_add(static_cast<std::uint64_t>(n), std::memory_order_relaxed);
  }
  finished_ = true;
}

}  // namespace hil::traffic
