#include "hil/traffic/flow.hpp"

#include <fcntl.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "hil/measure/pacing.hpp"
#include "hil/sys/error.hpp"
#include "hil/sys/thread_sched.hpp"
#include "hil/traffic/datagram_batch.hpp"
#include "hil/traffic/payload_file.hpp"
#include "hil/traffic/timer_wait.hpp"

namespace hil::traffic {

std::vector<std::uint8_t> random_block(std::size_t size, std::uint64_t seed) {
  std::vector<std::uint8_t> block(size);
  std::mt19937_64 rng(seed);
  for (auto& b : block) b = static_cast<std::uint8_t>(rng());
  return block;
}

namespace {

using clock = std::chrono::steady_clock;

// count copies of a random block of len bytes, back to back: a batch's datagrams, whose headers
// are written in place.
std::vector<std::uint8_t> repeated_blocks(std::size_t len, std::size_t count, std::uint64_t seed) {
  const auto block = random_block(len, seed);
  std::vector<std::uint8_t> buf(count * len);
  for (std::size_t i = 0; i < count; ++i) {
    std::copy(block.begin(), block.end(), buf.begin() + static_cast<std::ptrdiff_t>(i * len));
  }
  return buf;
}

// A datagram's stamp: CLOCK_MONOTONIC as seconds and microseconds, as iperf3 sends it.
datagram_stamp stamp(clock::time_point now, std::uint64_t seq) {
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
    : fd_(std::move(fd)), family_(family), config_(std::move(config)) {
  if (config_.proto == measure::protocol::udp && !config_.datagrams) {
    throw std::invalid_argument("a UDP flow needs the protocol's datagram format");
  }
  // asio leaves the sockets it set up non-blocking; the data loops block (with timeouts) instead
  // of spinning on EAGAIN.
  const int flags = ::fcntl(fd_.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd_.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) {
    sys::throw_last_errno("making a data socket blocking");
  }
  set_io_timeouts(fd_.get(), io_timeout_ms);
}

flow::~flow() {
  request_stop();
  join();
}

void flow::start(clock::time_point schedule_start) {
  schedule_start_ = schedule_start;
  worker_ = std::jthread([this](const std::stop_token& stop) { run(stop); });
}

void flow::request_stop() noexcept { worker_.request_stop(); }

void flow::join() {
  if (worker_.joinable()) worker_.join();
}

void flow::close() noexcept { fd_.reset(); }

void flow::restart_jitter() {
  const std::lock_guard lock(udp_mutex_);
  udp_stats_.restart_jitter();
}

flow_sample flow::sample() const {
  flow_sample s;
  if (config_.proto == measure::protocol::udp && config_.role == flow_role::receive) {
    // One consistent snapshot: the receiving thread adds a batch's bytes and statistics under
    // this lock, so bytes = (highest sequence - lost) datagrams holds at every sample.
    const std::lock_guard lock(udp_mutex_);
    s.bytes = bytes_.load(std::memory_order_relaxed);
    s.packets = packets_.load(std::memory_order_relaxed);
    s.udp = udp_stats_.snapshot();
  } else if (config_.proto == measure::protocol::udp) {
    // A UDP sender sends whole datagrams of block_len bytes: bytes follow from the count, so a
    // sample taken between the two counters' updates cannot disagree with itself.
    s.packets = packets_.load(std::memory_order_relaxed);
    s.bytes = s.packets * config_.block_len;
  } else {
    s.bytes = bytes_.load(std::memory_order_relaxed);
    s.packets = packets_.load(std::memory_order_relaxed);
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

std::uint64_t flow::datagrams_within_limits(std::uint64_t sent, std::uint64_t most) const {
  const std::uint64_t len = config_.block_len;
  std::uint64_t n = most;
  if (config_.block_limit != 0) n = std::min<std::uint64_t>(n, config_.block_limit - sent);
  if (config_.byte_limit != 0) {
    n = std::min<std::uint64_t>(n, (config_.byte_limit - bytes_.load() + len - 1) / len);
  }
  return n;
}

void flow::mark_finished() noexcept {
  finished_at_.store(std::chrono::steady_clock::now().time_since_epoch().count());
  finished_ = true;
}

std::optional<std::chrono::steady_clock::time_point> flow::finished_at() const noexcept {
  if (!finished_.load()) return std::nullopt;
  return std::chrono::steady_clock::time_point(
      std::chrono::steady_clock::duration(finished_at_.load()));
}

std::size_t flow::unsent_bytes() const noexcept {
  int queued = 0;
  if (!fd_ || ::ioctl(fd_.get(), SIOCOUTQ, &queued) != 0 || queued < 0) return 0;
  return static_cast<std::size_t>(queued);
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
  const auto began = sys::this_thread_sched_times();
  const auto began_at = std::chrono::steady_clock::now();
  const bool udp = config_.proto == measure::protocol::udp;
  if (config_.role == flow_role::send) {
    udp ? udp_send(stop) : tcp_send(stop);
  } else {
    udp ? udp_receive(stop) : tcp_receive(stop);
  }
  const auto ended = sys::this_thread_sched_times();
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - began_at;
  if (began && ended && wall.count() > 0) {
    const auto percent = [&](std::chrono::nanoseconds d) {
      return 100.0 * std::chrono::duration<double>(d).count() / wall.count();
    };
    thread_cpu_ = measure::data_thread_cpu{percent(ended->on_cpu - began->on_cpu),
                                           percent(ended->waiting - began->waiting)};
  }
}

void flow::tcp_send(const std::stop_token& stop) {
  const auto block = random_block(config_.block_len, config_.payload_seed);
  // Zero-copy where the kernel offers a memfd: sendfile(2) lends TCP the file's pages, where
  // send(2) copies the block out of this buffer on every write (payload_file.hpp).
  const auto file = payload_file::of(block);
  if (file) payload_file::block_sigpipe();
  const bool paced = config_.bitrate_bps != 0;
  const auto start = schedule_start_;
  const measure::pacer pacer(paced ? config_.bitrate_bps : 1, config_.block_len, start);
  timer_wait wait;
  std::uint64_t blocks = 0;
  auto last = start;
  while (!stop.stop_requested()) {
    if (!within_limits(block.size())) break;
    if (paced) {
      const auto due = pacer.next_due(blocks, last);
      if (due > clock::now()) wait.until(due);
    }
    std::size_t n = block.size();
    if (config_.byte_limit != 0) n = std::min<std::uint64_t>(n, config_.byte_limit - bytes_.load());
    const ssize_t sent =
        file ? file->send_to(fd_.get(), n) : ::send(fd_.get(), block.data(), n, MSG_NOSIGNAL);
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
  mark_finished();
}

void flow::tcp_receive(const std::stop_token& stop) {
  // The payload is counted, never looked at: MSG_TRUNC has TCP drop what it received instead of
  // copying it out (tcp(7)), so the receiving CPU spends itself on the stack, not on a copy no
  // one reads (TCP has verified its checksum before queueing it). The buffer is only the most one
  // call may take.
  std::vector<std::uint8_t> buf(std::max<std::size_t>(config_.block_len, 256 * 1024));
  while (!stop.stop_requested()) {
    const ssize_t n = ::recv(fd_.get(), buf.data(), buf.size(), MSG_TRUNC);
    if (n == 0) break;  // the sender closed its end
    if (n < 0) {
      if (transient(errno)) continue;
      fail(errno);
      return;
    }
    bytes_.fetch_add(static_cast<std::uint64_t>(n), std::memory_order_relaxed);
  }
  mark_finished();
}

void flow::udp_send(const std::stop_token& stop) {
  if (config_.bitrate_bps == 0) {
    udp_send_unpaced(stop);
    return;
  }
  udp_send_paced(stop, measure::pacer(config_.bitrate_bps, config_.block_len, schedule_start_));
}

void flow::udp_send_paced(const std::stop_token& stop, const measure::pacer& pacer) {
  // Every wake-up sends, in one sendmmsg(2), each datagram due by then (pacer::due_in_batch: at
  // most batch_limit back to back, catching up no faster than the pacer allows). On schedule that
  // is one datagram at its own instant; a sender that woke late (its CPU was taken: a loaded bench)
  // catches up in that one call instead of one wake-up per overdue datagram, which a CPU shared
  // with other runnable tasks delays again each time: sending one datagram per wake-up, a sender
  // of 8,304 datagrams/s on a core it shared with a busy loop fell 1.5–3.3 % behind its schedule
  // in 2 s, and RFC 2544 trials took it for the tool's limit. How far behind it fell at most is
  // kept (most_overdue): a catch-up is a burst above the rate, and a port's queue may lose it.
  //
  // How it waits: up to spin_up_to_per_second datagrams/s it sleeps and spins the last moments
  // (timer_wait) so each datagram leaves at its instant; above it the gap is shorter than a
  // timer's wake-up, so it sleeps (no spinning, timer slack 1 ns) and sends what is due by then.
  //
  // One message per datagram, never UDP GSO: a qdisc charges its per-packet cost once per skb,
  // and a GSO skb is one skb however many frames it carries, so a shaper that counts each frame's
  // preamble, gap and FCS (tbf's overhead, as the simulated port does) would admit more frames
  // than the port carries: 109 % of the media maximum for 64-byte frames at 10 Mbit/s when tried
  // (Rfc2544Throughput's netns proof). A schedule's bursts are short anyway (≤ 64 datagrams).
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  const bool spin = pacer.datagrams_per_second() <= spin_up_to_per_second;
  timer_wait wait;
  const std::size_t len = config_.block_len;
  auto buf = repeated_blocks(len, batch_limit, config_.payload_seed);
  datagram_batch batch(buf.data(), len, 1, batch_limit);
  const datagram_format& format = *config_.datagrams;
  std::uint64_t k = 0;  // datagrams sent; the next sequence number is k + 1
  std::uint64_t most_overdue = 0;
  auto last = pacer.start();
  while (!stop.stop_requested()) {
    const std::uint64_t limit = datagrams_within_limits(k, batch_limit);
    if (limit == 0) break;
    auto now = clock::now();
    std::uint64_t n = pacer.due_in_batch(k, last, now, limit);
    if (n == 0) {
      const auto due = pacer.next_due(k, last);
      spin ? wait.until(due) : sleep_until(due);
      continue;
    }
    if (const std::uint64_t due = pacer.due_by(now); due > k + 1 + most_overdue) {
      most_overdue = due - k - 1;
      most_overdue_.store(most_overdue, std::memory_order_relaxed);
    }
    for (std::size_t i = 0; i < n; ++i) {
      format.write(std::span(buf.data() + i * len, len), stamp(now, k + 1 + i));
    }
    const std::size_t used = batch.lay_out(n);
    const int sent = ::sendmmsg(fd_.get(), batch.messages(), static_cast<unsigned>(used), 0);
    if (sent < 0) {
      if (transient(errno)) continue;  // the sequence numbers are reused: no false gap
      fail(errno);
      return;
    }
    const std::uint64_t datagrams = batch.datagrams_in(sent);
    k += datagrams;
    last = now;
    bytes_.fetch_add(datagrams * len, std::memory_order_relaxed);
    packets_.fetch_add(datagrams, std::memory_order_relaxed);
  }
  mark_finished();
}

void flow::udp_send_unpaced(const std::stop_token& stop) {
  // As fast as the socket takes them: eight messages per sendmmsg(2), each of up to 64 datagrams
  // with UDP GSO (datagram_batch), of one without it (a datagram larger than the path MTU, which
  // goes out in IP fragments, as iperf3's do).
  const std::size_t len = config_.block_len;
  const std::size_t per_message = enable_udp_gso(fd_.get(), family_, len);
  constexpr std::size_t messages = 8;
  auto buf = repeated_blocks(len, per_message * messages, config_.payload_seed);
  datagram_batch batch(buf.data(), len, per_message, messages);
  const datagram_format& format = *config_.datagrams;
  std::uint64_t k = 0;  // datagrams sent; the next sequence number is k + 1
  while (!stop.stop_requested()) {
    const std::uint64_t n = datagrams_within_limits(k, batch.capacity());  // this round's
    if (n == 0) break;
    const auto now = clock::now();
    for (std::size_t i = 0; i < n; ++i) {
      format.write(std::span(buf.data() + i * len, len), stamp(now, k + 1 + i));
    }
    const std::size_t used = batch.lay_out(n);
    const int sent = ::sendmmsg(fd_.get(), batch.messages(), static_cast<unsigned>(used), 0);
    if (sent < 0) {
      if (transient(errno)) continue;
      fail(errno);
      return;
    }
    // Whole messages went out; the datagrams of unsent ones are numbered again next round.
    const std::uint64_t datagrams = batch.datagrams_in(sent);
    k += datagrams;
    bytes_.fetch_add(datagrams * len, std::memory_order_relaxed);
    packets_.fetch_add(datagrams, std::memory_order_relaxed);
  }
  mark_finished();
}

void flow::udp_receive(const std::stop_token& stop) {
  // recvmmsg(2) batches, and UDP GRO where the kernel offers it: a coalesced message carries
  // several datagrams of gso_size bytes each (the last may be shorter), split here.
  constexpr std::size_t batch = 32;
  const int on = 1;
  const bool gro = ::setsockopt(fd_.get(), SOL_UDP, UDP_GRO, &on, sizeof(on)) == 0;
  const std::size_t slot = gro ? 65536 : std::max<std::size_t>(config_.block_len, 2048);
  std::vector<std::uint8_t> buf(batch * slot);
  constexpr std::size_t control_len = CMSG_SPACE(sizeof(int));
  std::vector<std::uint8_t> control(batch * control_len);
  std::array<iovec, batch> iov{};
  std::array<mmsghdr, batch> msgs{};
  const datagram_format& format = *config_.datagrams;
  const bool wide = format.wide_sequence();
  for (;;) {
    // After a stop request, what already sits in the socket is still read, without waiting:
    // a datagram that arrived before TEST_END counts.
    const bool draining = stop.stop_requested();
    for (std::size_t i = 0; i < batch; ++i) {
      iov[i] = {buf.data() + i * slot, slot};
      msgs[i] = {};
      msgs[i].msg_hdr.msg_iov = &iov[i];
      msgs[i].msg_hdr.msg_iovlen = 1;
      msgs[i].msg_hdr.msg_control = control.data() + i * control_len;
      msgs[i].msg_hdr.msg_controllen = control_len;
    }
    const int n = ::recvmmsg(fd_.get(), msgs.data(), batch,
                             draining ? MSG_DONTWAIT : MSG_WAITFORONE, nullptr);
    if (n < 0) {
      if (draining && (errno == EAGAIN || errno == EINTR)) break;
      if (transient(errno)) continue;
      fail(errno);
      return;
    }
    const auto arrived = clock::now().time_since_epoch();
    std::uint64_t got_bytes = 0;
    std::uint64_t got_datagrams = 0;
    const std::lock_guard lock(udp_mutex_);
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      const std::size_t total = msgs[i].msg_len;
      std::size_t segment = total;
      for (cmsghdr* c = CMSG_FIRSTHDR(&msgs[i].msg_hdr); c != nullptr;
           c = CMSG_NXTHDR(&msgs[i].msg_hdr, c)) {
        if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
          int size = 0;
          std::memcpy(&size, CMSG_DATA(c), sizeof(size));
          if (size > 0) segment = static_cast<std::size_t>(size);
        }
      }
      const std::uint8_t* data = buf.data() + i * slot;
      if (segment < total && total % segment == 0 && account_run(data, total, segment, arrived)) {
        got_bytes += total;
        got_datagrams += total / segment;
        continue;
      }
      for (std::size_t off = 0; off < total; off += segment) {
        const std::size_t len = std::min(segment, total - off);
        const std::span<const std::uint8_t> datagram(data + off, len);
        const auto header = format.read(datagram);
        if (!header) {  // shorter than a header, or the sender's end marker
          if (const auto sent = format.end_marker(datagram)) {
            peer_sent_ = *sent + 1;
            mark_finished();
          }
          continue;
        }
        if (config_.block_limit != 0 && header->seq > config_.block_limit) continue;
        const auto sent =
            std::chrono::seconds(header->sec) + std::chrono::microseconds(header->usec);
        udp_stats_.on_datagram(header->seq, sent, arrived, len, wide);
        got_bytes += len;
        ++got_datagrams;
      }
    }
    bytes_.fetch_add(got_bytes, std::memory_order_relaxed);
    packets_.fetch_add(got_datagrams, std::memory_order_relaxed);
  }
  mark_finished();
}

bool flow::account_run(const std::uint8_t* data, std::size_t total, std::size_t segment,
                       std::chrono::nanoseconds arrived) {
  // One GSO send of ours arrives as one GRO message: consecutive sequence numbers under one
  // timestamp. Checking the first and last header proves that and lets the statistics advance
  // in O(1); anything else is counted datagram by datagram.
  const datagram_format& format = *config_.datagrams;
  const bool wide = format.wide_sequence();
  const std::size_t count = total / segment;
  const auto first = format.read(std::span(data, segment));
  const auto last = format.read(std::span(data + total - segment, segment));
  if (!first || !last || last->sec != first->sec || last->usec != first->usec) return false;
  const std::uint64_t mask = wide ? ~0ULL : 0xFFFF'FFFFULL;
  if (((first->seq + count - 1) & mask) != last->seq) return false;
  if (config_.block_limit != 0 && last->seq > config_.block_limit) return false;  // past -k
  const auto sent = std::chrono::seconds(first->sec) + std::chrono::microseconds(first->usec);
  udp_stats_.on_run(first->seq, count, sent, arrived, segment, wide);
  return true;
}

std::optional<std::uint64_t> flow::peer_sent() const noexcept {
  const std::uint64_t v = peer_sent_.load();
  if (v == 0) return std::nullopt;
  return v - 1;
}

}  // namespace hil::traffic
