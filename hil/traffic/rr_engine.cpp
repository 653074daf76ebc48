#include "hil/traffic/rr_engine.hpp"

#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "hil/measure/cpu_meter.hpp"
#include "hil/measure/units.hpp"
#include "hil/sys/error.hpp"
#include "hil/traffic/socket_options.hpp"
#include "hil/traffic/workloads.hpp"

namespace hil::traffic {
namespace {

using clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto connect_timeout = 5s;
constexpr int load_io_timeout_ms = 100;
// UDP_RR: this many unanswered requests in a row mean the peer is gone, not a lossy link.
constexpr int max_unanswered = 3;

// RRUL load: sink connections we write to, source connections we read from, one thread each.
class rrul_load {
 public:
  rrul_load(const measure::rr_spec& spec, const socket_address& tcp,
            const connection_hello& hello) {
    for (int i = 0; i < spec.load_streams; ++i) {
      add(tcp, spec.bind_device, hello, rr_connection::sink, up_);
      add(tcp, spec.bind_device, hello, rr_connection::source, down_);
    }
  }
  ~rrul_load() { stop(); }
  rrul_load(const rrul_load&) = delete;
  rrul_load& operator=(const rrul_load&) = delete;

  // Bytes moved so far each way.
  [[nodiscard]] std::uint64_t up() const noexcept { return up_.load(); }
  [[nodiscard]] std::uint64_t down() const noexcept { return down_.load(); }
  // The first error of a load connection, empty while all run.
  [[nodiscard]] std::string error() const {
    const std::scoped_lock lock(mutex_);
    return error_;
  }
  void stop() noexcept {
    for (auto& t : threads_) t.request_stop();
    threads_.clear();  // jthread joins
  }

 private:
  void add(const socket_address& tcp, const std::string& device, const connection_hello& hello,
           rr_connection purpose, std::atomic<std::uint64_t>& counter) {
    auto fd =
        connect_tcp(tcp, device, connect_timeout, std::chrono::milliseconds(load_io_timeout_ms));
    const auto bytes = hello.encode(purpose);
    write_all(fd.get(), bytes.data(), bytes.size());
    const bool send = purpose == rr_connection::sink;
    threads_.emplace_back([this, fd = std::move(fd), send, &counter](const std::stop_token& st) {
      run(fd.get(), send, counter, st);
    });
  }

  void run(int fd, bool send, std::atomic<std::uint64_t>& counter, const std::stop_token& st) {
    std::vector<char> buf(rr_load_block, 'h');
    while (!st.stop_requested()) {
      const ssize_t n = send ? ::send(fd, buf.data(), buf.size(), MSG_NOSIGNAL)
                             : ::recv(fd, buf.data(), buf.size(), 0);
      if (n > 0) {
        counter.fetch_add(static_cast<std::uint64_t>(n), std::memory_order_relaxed);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      const std::scoped_lock lock(mutex_);
      if (error_.empty()) {
        error_ = n == 0 ? "a load connection was closed by the peer"
                        : fmt::format("a load connection failed: {}", std::strerror(errno));
      }
      return;
    }
  }

  std::atomic<std::uint64_t> up_{0};    // bytes sent on sink connections
  std::atomic<std::uint64_t> down_{0};  // bytes received on source connections
  mutable std::mutex mutex_;            // guards error_
  std::string error_;
  std::vector<std::jthread> threads_;  // last member: joined before the counters go
};

// Adds which transaction failed and what it means to an I/O error.
[[noreturn]] void fail_transaction(const std::system_error& e, const measure::rr_spec& spec,
                                   std::uint64_t done, const socket_address& to) {
  std::string why = e.what();
  if (e.code() == std::errc::timed_out) {
    why = fmt::format("the peer at {} stopped answering: no response within {} ms", to.to_string(),
                      spec.response_timeout.count());
  }
  throw std::system_error(e.code(), fmt::format("{} transaction {}: {}",
                                                measure::workload_name(spec.kind), done + 1, why));
}

// Counts one completed transaction that took `took`.
void completed(measure::rr_result& r, clock::duration took, const rr_progress& progress) {
  r.latency.record(took);
  ++r.transactions;
  if (progress) progress(r.transactions);
}

// TCP_RR: one connection, one transaction after the other until the deadline.
void tcp_rr(const measure::rr_spec& spec, const socket_address& to,
            const connection_hello& greeting, clock::time_point end, measure::rr_result& r,
            const rr_progress& progress) {
  auto fd = connect_tcp(to, spec.bind_device, connect_timeout, spec.response_timeout);
  const auto hello = greeting.encode(rr_connection::rr);
  write_all(fd.get(), hello.data(), hello.size());
  std::vector<char> request(spec.request_size, 'q');
  std::vector<char> response(spec.response_size);
  try {
    request_response_loop(fd.get(), request, response, end,
                          [&](clock::duration took) { completed(r, took, progress); });
  } catch (const std::system_error& e) {
    fail_transaction(e, spec, r.transactions, to);
  }
}

// TCP_CRR: connect, hello + request, response, the peer's close; one connection per transaction,
// timed like netperf's from before connect() to the end of the connection.
void tcp_crr(const measure::rr_spec& spec, const socket_address& to,
             const connection_hello& greeting, clock::time_point end, measure::rr_result& r,
             const rr_progress& progress) {
  const auto hello = greeting.encode(rr_connection::crr);
  std::vector<char> request(hello.begin(), hello.end());
  request.resize(hello.size() + spec.request_size, 'q');
  std::vector<char> response(spec.response_size + 1);  // + 1: room to see more than the response
  try {
    for (auto now = clock::now(); now < end;) {
      connect_request_response(
          connect_tcp(to, spec.bind_device, spec.response_timeout, spec.response_timeout, false),
          request, response, "the peer");
      const auto done = clock::now();
      completed(r, done - now, progress);
      now = done;
    }
  } catch (const std::system_error& e) {
    fail_transaction(e, spec, r.transactions, to);
  }
}

// UDP_RR: one datagram each way per transaction (the request after the protocol's prefix); an
// unanswered request counts as lost.
void udp_rr(const measure::rr_spec& spec, const socket_address& to,
            const connection_hello& greeting, clock::time_point end, measure::rr_result& r,
            const rr_progress& progress) {
  sys::unique_fd fd(::socket(to.family(), SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd) sys::throw_last_errno("opening a UDP socket");
  if (!spec.bind_device.empty()) bind_to_device(fd.get(), spec.bind_device);
  if (::connect(fd.get(), to.get(), to.length) != 0) {
    sys::throw_last_errno("connecting a UDP socket to " + to.to_string());
  }
  set_io_timeouts(fd.get(), static_cast<int>(spec.response_timeout.count()));
  std::vector<std::uint8_t> request = greeting.datagram_prefix();
  const std::size_t body = request.size();  // where the request itself starts
  request.resize(body + spec.request_size, 'q');
  std::vector<std::uint8_t> response(std::max<std::size_t>(spec.response_size, 64) + 1);
  const std::size_t tag = std::min<std::size_t>({spec.request_size, spec.response_size, 8});
  std::uint64_t seq = 0;
  int unanswered = 0;  // requests lost in a row
  for (auto now = clock::now(); now < end;) {
    ++seq;
    std::memcpy(request.data() + body, &seq, tag);
    if (::send(fd.get(), request.data(), request.size(), 0) < 0) {
      if (errno == ECONNREFUSED) {
        throw std::system_error(
            errno, std::system_category(),
            fmt::format("UDP_RR: nothing listens on {} (ICMP port unreachable)", to.to_string()));
      }
      sys::throw_last_errno("UDP_RR: sending a request to " + to.to_string());
    }
    for (;;) {
      const ssize_t n = ::recv(fd.get(), response.data(), response.size(), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == ECONNREFUSED)) {
        ++r.lost;  // no answer in time (or an ICMP error): the next request goes out
        if (++unanswered == max_unanswered) {
          throw std::system_error(
              std::make_error_code(std::errc::timed_out),
              fmt::format("UDP_RR: the peer at {} stopped answering: {} requests in a row got no "
                          "response within {} ms each (after {} transactions)",
                          to.to_string(), max_unanswered, spec.response_timeout.count(),
                          r.transactions));
        }
        break;
      }
      if (n < 0) sys::throw_last_errno("UDP_RR: receiving from " + to.to_string());
      if (std::memcmp(response.data(), &seq, tag) != 0) continue;  // a late answer
      completed(r, clock::now() - now, progress);
      unanswered = 0;
      break;
    }
    now = clock::now();
  }
}

}  // namespace

measure::rr_result run_rr(const measure::rr_spec& spec, const socket_address& tcp,
                          const socket_address& udp, const connection_hello& hello,
                          const rr_progress& progress) {
  measure::rr_result r;
  r.spec = spec;
  std::optional<rrul_load> load;
  if (spec.load_streams > 0) {
    load.emplace(spec, tcp, hello);
    std::this_thread::sleep_for(load_warmup);  // the load's own ramp-up, not a synchronisation
    if (const auto err = load->error(); !err.empty()) {
      throw std::system_error(std::make_error_code(std::errc::connection_reset), err);
    }
  }
  const std::uint64_t up0 = load ? load->up() : 0;
  const std::uint64_t down0 = load ? load->down() : 0;
  const measure::cpu_meter cpu;
  const auto start = clock::now();
  const auto end = start + spec.duration;
  switch (spec.kind) {
    case measure::workload::tcp_rr:
      tcp_rr(spec, tcp, hello, end, r, progress);
      break;
    case measure::workload::tcp_crr:
      tcp_crr(spec, tcp, hello, end, r, progress);
      break;
    case measure::workload::udp_rr:
      udp_rr(spec, udp, hello, end, r, progress);
      break;
    default:
      throw std::invalid_argument(
          fmt::format("{} is not a request/response workload", measure::workload_name(spec.kind)));
  }
  r.seconds = std::chrono::duration<double>(clock::now() - start).count();
  r.local_cpu = cpu.usage();
  if (load) {
    r.load_up_bps = measure::bits_per_second(load->up() - up0, r.seconds);
    r.load_down_bps = measure::bits_per_second(load->down() - down0, r.seconds);
    const auto err = load->error();
    load->stop();
    if (!err.empty())
      throw std::system_error(std::make_error_code(std::errc::connection_reset), err);
  }
  return r;
}

}  // namespace hil::traffic
