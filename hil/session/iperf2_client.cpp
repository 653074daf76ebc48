#include "hil/session/iperf2_client.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "hil/iperf2/wire.hpp"
#include "hil/session/control_connect.hpp"
#include "hil/session/iperf3_streams.hpp"
#include "hil/sys/error.hpp"
#include "hil/traffic/socket_options.hpp"
#include "hil/traffic/test_run.hpp"

namespace hil::session {
namespace {

using clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// How long the first answer to a TCP header may take before the test goes on without it (an
// iperf 2 before 2.0.10 sends no ack); long enough for a LAN, short beside any test.
constexpr auto ack_wait = 300ms;
// The FIN schedule of a 2.1.8 client: one more every 10 ms without a report, for 2 s.
constexpr auto fin_interval = 10ms;
constexpr int fin_rounds = 200;
// How long a TCP server may take to close after our shutdown (iperf 2 waits max(-t, 2 s)).
constexpr auto close_wait = 10s;

// iperf 2's datagrams: the prefix and the test's header in every one (as a stock client's buffer
// carries it), then the payload. iperf 2 stamps wall-clock time, and its server's jitter filter
// starts from the first transit time, so the engine's monotonic stamps are moved onto the wall
// clock (the offset taken once: the intervals stay monotonic).
class iperf2_datagrams final : public traffic::datagram_format {
 public:
  explicit iperf2_datagrams(const iperf2::client_header& h)
      : header_(iperf2::encode_header(h)),
        wall_offset_(std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::system_clock::now().time_since_epoch() -
            std::chrono::steady_clock::now().time_since_epoch())) {}

  [[nodiscard]] std::size_t header_size() const override { return iperf2::udp_header_size; }

  void write(std::span<std::uint8_t> datagram, const traffic::datagram_stamp& s) const override {
    const auto wall =
        std::chrono::seconds(s.sec) + std::chrono::microseconds(s.usec) + wall_offset_;
    const auto sec = std::chrono::duration_cast<std::chrono::seconds>(wall);
    iperf2::encode_prefix(
        datagram.first<iperf2::prefix_size>(),
        {static_cast<std::int64_t>(s.seq), static_cast<std::uint32_t>(sec.count()),
         static_cast<std::uint32_t>((wall - sec).count())});
    std::copy(header_.begin(), header_.end(), datagram.begin() + iperf2::prefix_size);
  }

  [[nodiscard]] std::optional<traffic::datagram_stamp> read(
      std::span<const std::uint8_t> datagram) const override {
    if (datagram.size() < iperf2::prefix_size) return std::nullopt;
    const auto p = iperf2::decode_prefix(datagram.first<iperf2::prefix_size>());
    if (p.seq <= 0) return std::nullopt;  // a FIN
    return traffic::datagram_stamp{p.sec, p.usec, static_cast<std::uint64_t>(p.seq)};
  }

  [[nodiscard]] bool wide_sequence() const override { return true; }

 private:
  std::array<std::uint8_t, iperf2::header_size> header_;
  std::chrono::microseconds wall_offset_;  // wall clock − monotonic clock
};

[[noreturn]] void fail(std::errc code, const std::string& message) {
  throw std::system_error(std::make_error_code(code), message);
}

void refuse_what_iperf2_cannot_carry(const measure::test_spec& s) {
  std::vector<std::string> no;
  if (s.reverse) no.emplace_back("-R");
  if (s.bidirectional) no.emplace_back("--bidir");
  if (s.omit.count() > 0) no.emplace_back("-O");
  if (s.blocks > 0) no.emplace_back("-k");
  if (s.get_server_output) no.emplace_back("--get-server-output");
  if (s.bytes >= (std::uint64_t{1} << 31)) no.emplace_back("-n of 2 GiB or more");
  if (no.empty()) return;
  std::string list;
  for (const auto& n : no) list += (list.empty() ? "" : ", ") + n;
  fail(std::errc::invalid_argument,
       fmt::format("{}: hilperf does not run these against an iperf 2 server (iperf 2's own -R "
                   "and --full-duplex are not implemented yet)",
                   list));
}

// Waits until fd is readable or deadline passes; true when readable.
bool readable(int fd, clock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    pollfd p{fd, POLLIN, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0)));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) sys::throw_last_errno("poll");
  }
}

sys::unique_fd connect_stream(const asio::ip::tcp::endpoint& to, const measure::test_spec& spec,
                              bool udp, std::chrono::milliseconds timeout) {
  const int family = to.protocol().family();
  sys::unique_fd fd(
      ::socket(family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd) sys::throw_last_errno("socket");
  if (!spec.bind_device.empty()) traffic::bind_to_device(fd.get(), spec.bind_device);
  if (!spec.bind_address.empty()) {
    const asio::ip::tcp::endpoint local(asio::ip::make_address(spec.bind_address), 0);
    if (::bind(fd.get(), local.data(), static_cast<socklen_t>(local.size())) != 0) {
      sys::throw_last_errno("bind to " + spec.bind_address);
    }
  }
  traffic::apply_data_options(fd.get(), family, spec);
  if (udp) enlarge_udp_receive_buffer(fd.get(), 4 << 20);
  if (::connect(fd.get(), to.data(), static_cast<socklen_t>(to.size())) != 0) {
    if (errno != EINPROGRESS) sys::throw_last_errno("connect");
    pollfd p{fd.get(), POLLOUT, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) {
      fail(std::errc::timed_out,
           fmt::format("no answer from {}:{} within {} s", to.address().to_string(), to.port(),
                       timeout.count() / 1000.0));
    }
    int err = 0;
    socklen_t len = sizeof(err);
    ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
    if (err == ECONNREFUSED) {
      fail(std::errc::connection_refused,
           fmt::format("nothing listens on {}:{} — is `iperf -s -p {}` running there?",
                       to.address().to_string(), to.port(), to.port()));
    }
    if (err != 0) sys::throw_errno(err, fmt::format("connect to {}", to.address().to_string()));
  }
  return fd;
}

// After the header: an iperf 2 server acks it (00 00 00 02 …); an iperf3 server reads it as its
// cookie and asks for parameters (0x09), then resets. Nothing at all is an older iperf 2.
void check_first_answer(int fd, const std::string& where) {
  if (!readable(fd, clock::now() + ack_wait)) return;
  std::array<std::uint8_t, 1> first{};
  const ssize_t n = ::recv(fd, first.data(), first.size(), MSG_PEEK);
  if (n == 1 && first[0] == 0x09) {
    fail(std::errc::protocol_error,
         fmt::format("the server at {} speaks iperf3, not iperf 2 (it asked for iperf3 "
                     "parameters); set peer.server = \"iperf3\" (hilperf: drop --protocol iperf2)",
                     where));
  }
  if (n == 0) {
    fail(std::errc::connection_aborted,
         fmt::format("the server at {} closed the connection on reading the iperf 2 header, as an "
                     "iperf3 server does (hilperf-peer's iperf3 port, for one): iperf 2 listens "
                     "on 5001 unless told otherwise; if it is iperf3, set peer.server = "
                     "\"iperf3\" (hilperf: drop --protocol iperf2)",
                     where));
  }
}

// Reads until the server closes, so the receiver has read every byte; the ack is in there.
void await_close(int fd, const std::string& where) {
  ::shutdown(fd, SHUT_WR);
  const auto deadline = clock::now() + close_wait;
  std::array<std::uint8_t, 4096> sink{};
  for (;;) {
    if (!readable(fd, deadline)) {
      fail(std::errc::timed_out,
           fmt::format("the server at {} did not close within {} s after the test: an iperf 2 "
                       "server closes as soon as it has read the stream",
                       where, close_wait.count()));
    }
    const ssize_t n = ::recv(fd, sink.data(), sink.size(), 0);
    if (n == 0) return;
    if (n < 0 && errno != EINTR && errno != EAGAIN) {
      sys::throw_last_errno(fmt::format("the end of the test with {}", where));
    }
  }
}

// The FIN round until the server's report arrives (iperf 2's schedule); nullopt after 2 s.
std::optional<iperf2::server_report> await_report(int fd, std::int64_t sent,
                                                  const traffic::datagram_format& format,
                                                  std::size_t len) {
  std::vector<std::uint8_t> fin(std::max(len, format.header_size()), 0);
  std::vector<std::uint8_t> in(65536);
  std::int64_t seq = -(sent + 1);
  for (int round = 0; round <= fin_rounds; ++round, --seq) {
    // Stamped now, as a stock client's FIN is: the server's jitter filter takes it in too.
    const auto now =
        std::chrono::duration_cast<std::chrono::microseconds>(clock::now().time_since_epoch());
    format.write(fin, {static_cast<std::uint32_t>(now.count() / 1'000'000),
                       static_cast<std::uint32_t>(now.count() % 1'000'000), 0});
    auto prefix =
        iperf2::decode_prefix(std::span<const std::uint8_t>(fin).first<iperf2::prefix_size>());
    prefix.seq = seq;
    iperf2::encode_prefix(std::span(fin).first<iperf2::prefix_size>(), prefix);
    (void)::send(fd, fin.data(), fin.size(), MSG_NOSIGNAL);
    const auto until = clock::now() + fin_interval;
    while (readable(fd, until)) {
      const ssize_t n = ::recv(fd, in.data(), in.size(), 0);
      if (n < 0) break;  // ICMP port unreachable: keep the schedule, the verdict comes at the end
      if (auto r = iperf2::decode_report(std::span(in.data(), static_cast<std::size_t>(n)))) {
        return r;
      }
    }
  }
  return std::nullopt;
}

class iperf2_session {
 public:
  explicit iperf2_session(const client_options& o)
      : o_(o), to_(resolve_peer(o.host, o.port)), run_(o.spec) {
    where_ = fmt::format("{}:{}", o.host, o.port);
  }

  measure::test_result run() {
    refuse_what_iperf2_cannot_carry(o_.spec);
    const bool udp = o_.spec.proto == measure::protocol::udp;
    auto header = iperf2::make_header(udp, o_.spec.parallel, o_.port, o_.spec.duration,
                                      o_.spec.bytes, udp ? o_.spec.effective_bitrate() : 0);
    // A stock UDP server reads with a buffer of the header's length (its default, 1470 bytes,
    // when 0): a longer datagram is cut and the test's end is missed. Say ours, as -l does.
    if (udp) header.buffer_len = static_cast<std::int32_t>(o_.spec.effective_block_len());
    format_ = std::make_shared<iperf2_datagrams>(header);
    const auto started = std::chrono::system_clock::now();
    for (int i = 0; i < o_.spec.parallel; ++i)
      open_stream(udp, header, stream_id(static_cast<std::size_t>(i)));
    run_.start();
    drive();
    run_.stop_senders();
    run_.join_senders();
    run_.finish();  // this end's totals, before the end exchange needs them
    const auto remote = udp ? finish_udp() : finish_tcp();
    measure::test_result r = run_.result(remote);
    r.is_client = true;
    r.remote_host = o_.host;
    r.remote_port = o_.port;
    r.started = started;
    r.connected = connected_;
    r.payload_seed = payload_seed_;
    const std::string local = run_.local_totals().congestion;
    r.sender_congestion = local;
    return r;
  }

 private:
  void open_stream(bool udp, const iperf2::client_header& header, int id) {
    auto fd = connect_stream(to_, o_.spec, udp, o_.connect_timeout);
    if (!udp) {
      const auto bytes = iperf2::encode_header(header);
      if (::send(fd.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL) !=
          static_cast<ssize_t>(bytes.size())) {
        sys::throw_last_errno(fmt::format("sending the iperf 2 header to {}", where_));
      }
      check_first_answer(fd.get(), where_);
    }
    ends_.emplace_back(::fcntl(fd.get(), F_DUPFD_CLOEXEC, 0));  // for the test's end
    if (!ends_.back()) sys::throw_last_errno("dup");
    const auto endpoint = describe_stream(fd.get(), id);
    connected_.push_back(endpoint);
    if (o_.on_connected) o_.on_connected(endpoint);
    auto config = flow_config_for(o_.spec, id, traffic::flow_role::send, payload_seed_);
    if (udp) config.datagrams = format_;
    run_.add_flow(std::make_unique<traffic::flow>(std::move(fd), to_.protocol().family(), config));
  }

  // Intervals until -t passes (or -n is written); an abort or a failed stream ends it early.
  void drive() {
    const auto t0 = run_.t0();
    const bool timed = o_.spec.bytes == 0;
    const auto end = t0 + o_.spec.duration;
    const auto step = o_.spec.interval;
    auto next = step.count() > 0 ? t0 + step : clock::time_point::max();
    for (;;) {
      const auto now = clock::now();
      if (timed ? now >= end : run_.senders_done()) break;
      if (o_.abort != nullptr && o_.abort->load()) {
        fail(std::errc::operation_canceled, "interrupted");
      }
      if (const auto err = run_.flow_error(); !err.empty()) {
        fail(std::errc::io_error,
             fmt::format("{} (the iperf 2 server at {} went away or refused the stream: for "
                         "UDP, is `iperf -s -u` running there?)",
                         err, where_));
      }
      if (now >= next) {
        const auto sample = run_.sample_interval(now);
        if (o_.on_interval) o_.on_interval(sample);
        next += step;
      }
      std::this_thread::sleep_until(std::min({next, timed ? end : now + 50ms, now + 50ms}));
    }
  }

  traffic::run_totals finish_tcp() {
    for (const auto& fd : ends_) await_close(fd.get(), where_);
    // The server closed after reading to our FIN: it received every byte we wrote.
    traffic::run_totals remote;
    const auto mine = run_.local_totals();
    for (const auto& s : mine.streams) {
      traffic::run_totals::stream r{s.id, {}};
      r.totals.bytes = s.totals.bytes;
      r.totals.seconds = s.totals.seconds;
      remote.streams.push_back(r);
    }
    return remote;
  }

  traffic::run_totals finish_udp() {
    traffic::run_totals remote;
    const auto mine = run_.local_totals();
    const std::size_t len = o_.spec.effective_block_len();
    for (std::size_t i = 0; i < ends_.size(); ++i) {
      const auto& s = mine.streams.at(i);
      const auto report = await_report(ends_[i].get(), s.totals.packets, *format_, len);
      if (!report) {
        fail(std::errc::timed_out,
             fmt::format("no iperf 2 server report from {} within 2 s of the test's end: is "
                         "`iperf -s -u -p {}` running there? (an iperf3 server does not answer "
                         "iperf 2's UDP)",
                         where_, o_.port));
      }
      // The server counts the FIN (sequence sent + 1): take it out. Its byte count is not used:
      // a 2.1.8 server reads at most its own buffer (1470 bytes unless started with -l) of each
      // datagram, whatever the header says, so the bytes follow from its datagram counts.
      traffic::run_totals::stream r{s.id, {}};
      r.totals.packets = std::max<std::int64_t>(report->datagrams - 1, 0);
      const std::int64_t received = std::max<std::int64_t>(r.totals.packets - report->lost, 0);
      r.totals.bytes = static_cast<std::uint64_t>(received) * len;
      r.totals.errors = report->lost;
      r.totals.out_of_order = report->out_of_order;
      r.totals.jitter_s = static_cast<double>(report->jitter.count()) / 1e6;
      r.totals.seconds = static_cast<double>(report->duration.count()) / 1e6;
      remote.streams.push_back(r);
    }
    return remote;
  }

  const client_options& o_;
  asio::ip::tcp::endpoint to_;
  std::string where_;
  traffic::test_run run_;
  std::shared_ptr<const traffic::datagram_format> format_;
  std::vector<sys::unique_fd> ends_;  // a duplicate of each stream's socket, for its end
  std::vector<measure::stream_endpoint> connected_;
  std::uint64_t payload_seed_ = new_payload_seed();
};

}  // namespace

measure::test_result run_iperf2_client(const client_options& o) {
  iperf2_session session(o);
  return session.run();
}

}  // namespace hil::session
