#include "hil/traffic/rr_responder.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/traffic/socket_options.hpp"

namespace hil::traffic {
namespace {

constexpr int poll_ms = static_cast<int>(rr_responder::stop_poll.count());
// Connections whose hello is due at once, at most, and how long each may take to send it: long
// enough for one retransmission of the hello's segment on a congested link (TCP's retransmission
// timeout is 1 s at first and grows with the round trip: a saturated 10 Mbit/s link with 400 ms
// of queue each way had a loaded RR connection's hello arrive after 1 s, and the peer reset it).
constexpr std::size_t max_greetings = 64;
constexpr std::chrono::seconds greeting_timeout{5};

// True for the errors a blocking call with a timeout returns while nothing happens.
bool idle(ssize_t n) { return n < 0 && (errno == EAGAIN || errno == EINTR); }

}  // namespace

rr_responder::rr_responder(const socket_address& local, const measure::rr_spec& spec,
                           std::shared_ptr<const connection_hello> hello,
                           const socket_address& client)
    : spec_(spec),
      hello_(std::move(hello)),
      prefix_(hello_->datagram_prefix()),
      client_(client),
      max_workers_(1 + 2 * static_cast<std::size_t>(std::max(spec.load_streams, 0))),
      listener_(open_bound(local, SOCK_STREAM, rr_responder::stop_poll)),
      udp_(open_bound(local, SOCK_DGRAM, rr_responder::stop_poll)) {
  if (::listen(listener_.get(), SOMAXCONN) != 0) sys::throw_last_errno("listen on a data port");
  tcp_port_ = local_port(listener_.get());
  udp_port_ = local_port(udp_.get());
}

rr_responder::~rr_responder() { stop(); }

void rr_responder::start() {
  cpu_.emplace();
  acceptor_ = std::jthread([this](const std::stop_token& st) { accept_loop(st); });
  udp_thread_ = std::jthread([this](const std::stop_token& st) { udp_loop(st); });
}

void rr_responder::stop() noexcept {
  acceptor_.request_stop();
  udp_thread_.request_stop();
  if (acceptor_.joinable()) acceptor_.join();
  if (udp_thread_.joinable()) udp_thread_.join();
  std::vector<worker> workers;
  {
    const std::scoped_lock lock(mutex_);
    workers.swap(workers_);
  }
  for (auto& w : workers) w.thread.request_stop();
  workers.clear();  // joins
}

measure::cpu_usage rr_responder::cpu() const { return cpu_ ? cpu_->usage() : measure::cpu_usage{}; }

void rr_responder::accept_loop(const std::stop_token& st) {
  // Connections whose hello is still due, each read as its bytes come: a silent or slow one holds
  // up no other, and is dropped at its deadline.
  struct greeting {
    sys::unique_fd fd;
    std::vector<std::uint8_t> hello;
    std::size_t have = 0;
    std::chrono::steady_clock::time_point deadline;
  };
  std::vector<greeting> waiting;
  std::vector<pollfd> polled;
  while (!st.stop_requested()) {
    polled.assign(1, pollfd{listener_.get(), POLLIN, 0});
    for (const auto& g : waiting) polled.push_back(pollfd{g.fd.get(), POLLIN, 0});
    if (::poll(polled.data(), polled.size(), poll_ms) < 0) continue;  // EINTR
    const auto now = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < waiting.size(); ++i) {
      auto& g = waiting[i];
      if (polled[i + 1].revents != 0) {
        // Never past the hello: what follows (a TCP_CRR request) is the connection's own.
        const ssize_t n =
            ::recv(g.fd.get(), g.hello.data() + g.have, g.hello.size() - g.have, MSG_DONTWAIT);
        if (n > 0) g.have += static_cast<std::size_t>(n);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) g.deadline = now;  // gone
      }
      if (g.have == g.hello.size()) {
        serve(std::move(g.fd), g.hello);
      } else if (now >= g.deadline) {
        turned_away_.fetch_add(1, std::memory_order_relaxed);
        g.fd.reset();
      }
    }
    std::erase_if(waiting, [](const greeting& g) { return !g.fd; });
    if ((polled[0].revents & POLLIN) == 0) continue;
    sockaddr_storage from{};
    socklen_t from_len = sizeof(from);
    sys::unique_fd fd(
        ::accept4(listener_.get(), reinterpret_cast<sockaddr*>(&from), &from_len, SOCK_CLOEXEC));
    if (!fd) {
      // A connection reset before accept: try again. Out of descriptors or memory the next
      // accept would fail at once: wait instead of spinning.
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      continue;
    }
    if (!same_host(from, client_) || waiting.size() >= max_greetings) {
      turned_away_.fetch_add(1, std::memory_order_relaxed);
      continue;  // closed unread
    }
    waiting.push_back(
        {std::move(fd), std::vector<std::uint8_t>(hello_->size()), 0, now + greeting_timeout});
  }
}

void rr_responder::serve(sys::unique_fd fd, const std::vector<std::uint8_t>& hello) {
  const auto kind = hello_->decode(hello);
  if (!kind) {
    turned_away_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (*kind == rr_connection::crr) {
    answer_crr(fd.get());
    return;
  }
  auto shared = std::make_shared<sys::unique_fd>(std::move(fd));
  const bool started = spawn([this, kind, shared](const std::stop_token& stop) {
    const int sock = shared->get();
    switch (*kind) {
      case rr_connection::rr:
        answer_rr(sock, stop);
        break;
      case rr_connection::sink:
        sink(sock, stop);
        break;
      default:
        source(sock, stop);
        break;
    }
  });
  if (!started) turned_away_.fetch_add(1, std::memory_order_relaxed);
}

bool rr_responder::spawn(std::function<void(const std::stop_token&)> body) {
  const std::scoped_lock lock(mutex_);
  std::erase_if(workers_, [](const worker& w) { return w.done->load(); });  // joins them
  if (workers_.size() >= max_workers_) return false;
  auto done = std::make_shared<std::atomic<bool>>(false);
  workers_.push_back({done, std::jthread([body = std::move(body), done](const std::stop_token& st) {
                        body(st);
                        done->store(true);
                      })});
  return true;
}

void rr_responder::answer_rr(int fd, const std::stop_token& st) {
  std::size_t have = 0;  // of the current request
  std::vector<char> request(spec_.request_size);
  std::vector<char> response(spec_.response_size, 'r');
  while (!st.stop_requested()) {
    if (have < request.size()) {
      const ssize_t n = ::recv(fd, request.data() + have, request.size() - have, 0);
      if (idle(n)) continue;
      if (n <= 0) return;  // the client is done (EOF) or gone
      have += static_cast<std::size_t>(n);
      if (have < request.size()) continue;
    }
    have = 0;
    if (::send(fd, response.data(), response.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(response.size())) {
      return;
    }
    transactions_.fetch_add(1, std::memory_order_relaxed);
  }
}

void rr_responder::answer_crr(int fd) {
  std::vector<char> request(spec_.request_size);
  std::vector<char> response(spec_.response_size, 'r');
  try {
    read_exact(fd, request.data(), request.size());
    write_all(fd, response.data(), response.size());
    transactions_.fetch_add(1, std::memory_order_relaxed);
  } catch (const std::system_error&) {
    // The client gave up on this transaction; it reports that itself.
  }
}

void rr_responder::sink(int fd, const std::stop_token& st) {
  std::vector<char> buf(rr_load_block);
  while (!st.stop_requested()) {
    const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
    if (idle(n)) continue;
    if (n <= 0) return;
  }
}

void rr_responder::source(int fd, const std::stop_token& st) {
  std::vector<char> buf(rr_load_block, 'd');
  while (!st.stop_requested()) {
    const ssize_t n = ::send(fd, buf.data(), buf.size(), MSG_NOSIGNAL);
    if (idle(n)) continue;
    if (n <= 0) return;
  }
}

void rr_responder::udp_loop(const std::stop_token& st) {
  const std::size_t body = prefix_.size();  // where the request starts, after the prefix
  std::vector<std::uint8_t> request(body + std::max<std::size_t>(spec_.request_size, 64) + 1);
  std::vector<std::uint8_t> response(spec_.response_size, 'r');
  const std::size_t tag = std::min<std::size_t>({spec_.request_size, spec_.response_size, 8});
  while (!st.stop_requested()) {
    sockaddr_storage from{};
    socklen_t from_len = sizeof(from);
    const ssize_t n = ::recvfrom(udp_.get(), request.data(), request.size(), 0,
                                 reinterpret_cast<sockaddr*>(&from), &from_len);
    if (n <= 0) continue;
    const auto got = static_cast<std::size_t>(n);
    if (got < body || !same_host(from, client_) ||
        !std::equal(prefix_.begin(), prefix_.end(), request.begin())) {
      turned_away_.fetch_add(1, std::memory_order_relaxed);  // never answered: no reflection
      continue;
    }
    std::memcpy(response.data(), request.data() + body, std::min(tag, got - body));
    if (::sendto(udp_.get(), response.data(), response.size(), 0,
                 reinterpret_cast<const sockaddr*>(&from), from_len) > 0) {
      transactions_.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

}  // namespace hil::traffic
