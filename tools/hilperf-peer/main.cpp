// hilperf-peer: the server; accepts stock iperf3 clients and hilperf, one test at a time, and
// stock iperf 2 clients on its iperf 2 port (5001, TCP and UDP).
// A thin main over hil::session::server, which counts a hilperf client's frames (FRAME_COUNT) in
// XDP through xdp_count.hpp (hil::xdp is linked here, not into hil::hil). Prints "hilperf-peer:
// listening on port N" once ready (tests and fixtures wait for that line), then one line per test.
// Exit codes: 0 stopped normally, 1 cannot serve (port in use, …), 2 bad usage.
#include <pthread.h>
#include <signal.h>

#include <charconv>
#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>
#include <system_error>
#include <thread>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "hil/iperf2/wire.hpp"
#include "hil/measure/units.hpp"
#include "hil/report/iperf3_text.hpp"
#include "hil/session/iperf2_server.hpp"
#include "hil/session/iperf3_server.hpp"
#include "hil/sys/printable.hpp"
#include "hil/sys/text_file.hpp"
#include "xdp_count.hpp"

namespace {

void log_line(const std::string& line) {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  // Lines quote what clients sent: one line each, whatever they sent (sys/printable.hpp).
  std::cout << fmt::format("{:%Y-%m-%dT%H:%M:%S} hilperf-peer: {}", fmt::localtime(now),
                           hil::sys::printable(line))
            << std::endl;
}

// The command line: the server's options and what main turns into them after parsing.
struct peer_options {
  hil::session::server_options server;
  bool server_flag = false;  // -s, accepted for iperf3 habit
  int idle_timeout = 0;      // seconds
  int rcv_timeout_ms = 120'000;
  std::string private_key_path;
  std::string users_path;
  int skew_threshold = 10;  // seconds
  bool accept_pkcs1 = false;
  int iperf2_port = hil::iperf2::default_port;
  CLI::Option* iperf2_option = nullptr;  // counts whether --iperf2-port was given
  int max_duration = 0;                  // seconds
  std::string bitrate_limit;
  bool socket_count_only = false;  // --no-xdp
};

// Reads --server-bitrate-limit's RATE[/SECS] into o; CLI11's message for a bad one, else empty.
std::string parse_bitrate_limit(const std::string& text, hil::session::server_options& o) {
  const auto slash = text.find('/');
  const auto rate = hil::measure::parse_rate(text.substr(0, slash));
  if (!rate || *rate == 0) return "RATE must be a positive number of bit/s, e.g. 500M";
  o.bitrate_limit = *rate;
  if (slash == std::string::npos) return {};
  int seconds = 0;
  const auto tail = std::string_view(text).substr(slash + 1);
  const auto [end, ec] = std::from_chars(tail.data(), tail.data() + tail.size(), seconds);
  if (ec != std::errc() || end != tail.data() + tail.size() || seconds < 1 || seconds > 60) {
    return "SECS after / must be a whole number of seconds from 1 to 60";
  }
  o.bitrate_window = std::chrono::seconds(seconds);
  return {};
}

// Declares the options of where and how long to serve into p (the first ones --help lists).
void declare_serving_options(CLI::App& app, peer_options& p) {
  auto& o = p.server;
  app.add_flag("-s,--server", p.server_flag,
               "run as server (the only mode; accepted for iperf3 habit)");
  app.add_option("-p,--port", o.port, "port to listen on (0 = any free port)")
      ->capture_default_str();
  app.add_option("-B,--bind", o.bind_address, "address to listen on");
  app.add_flag("-1,--one-off", o.one_off, "serve one test, then exit");
  app.add_option("--data-port", o.data_port,
                 "TCP and UDP port for the request/response workloads' data (0 = a free one per "
                 "test; fix it to open it in a firewall)")
      ->capture_default_str();
  app.add_option("--idle-timeout", p.idle_timeout,
                 "exit when no client comes for this many seconds")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--rcv-timeout", p.rcv_timeout_ms,
                 "ms without data after which an untimed test (-n/-k) ends (as iperf3's)")
      ->check(CLI::Range(100, 86'400'000))
      ->capture_default_str();
}

// Declares the authentication options into p; returns the key's option, which others need.
CLI::Option* declare_auth_options(CLI::App& app, peer_options& p) {
  auto* key = app.add_option("--rsa-private-key-path", p.private_key_path,
                             "RSA private key (PEM, unprotected) to decrypt clients' credentials")
                  ->check(CLI::ExistingFile);
  auto* users = app.add_option("--authorized-users-path", p.users_path,
                               "iperf3's authorized users file: user,sha256(\"{user}password\")")
                    ->check(CLI::ExistingFile);
  key->needs(users);
  users->needs(key);
  app.add_option("--time-skew-threshold", p.skew_threshold,
                 "seconds a client's clock may differ from ours")
      ->check(CLI::PositiveNumber)
      ->needs(key)
      ->capture_default_str();
  return key;
}

// Declares the limits a client's test must keep into p.
void declare_limit_options(CLI::App& app, peer_options& p) {
  app.add_option("--server-max-duration", p.max_duration,
                 "longest test (-t + -O, seconds) a client may ask; untimed tests are refused "
                 "(0 = no cap, as iperf3's)")
      ->check(CLI::Range(0, 86400))
      ->capture_default_str();
  app.add_option("--server-bitrate-limit", p.bitrate_limit,
                 "RATE[/SECS]: most bit/s of a test, all streams both ways, averaged over SECS "
                 "(1..60, default 5); suffixes k, M, G as -b (iperf3's option)")
      ->check([&o = p.server](const std::string& text) { return parse_bitrate_limit(text, o); });
  app.add_option("--max-streams", p.server.max_streams,
                 "most data streams in one test, both directions together")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
}

// Declares every option into p, in the order --help lists them.
void declare_options(CLI::App& app, peer_options& p) {
  app.set_version_flag("--version", "hilperf-peer " HIL_VERSION " (iperf3 3.12 compatible)");
  declare_serving_options(app, p);
  auto* key = declare_auth_options(app, p);
  p.iperf2_option =
      app.add_option("--iperf2-port", p.iperf2_port,
                     "TCP and UDP port for stock iperf 2 clients (iperf -c, iperf -c -u); 0 = none")
          ->check(CLI::Range(0, 65535))
          ->capture_default_str();
  declare_limit_options(app, p);
  app.add_flag("--use-pkcs1-padding", p.accept_pkcs1,
               "also accept PKCS#1 v1.5 credentials, from iperf3 clients before 3.17 (open to "
               "padding-oracle attacks, as iperf3 warns)")
      ->needs(key);
  app.add_flag("--no-xdp", p.socket_count_only,
               "count a hilperf client's frames (FRAME_COUNT) on a UDP socket, never in XDP");
}

// Completes p.server from the parsed options: reads the key and checks the users file can be
// read. False, after saying why on stderr, when they cannot.
bool complete_server_options(peer_options& p) {
  auto& o = p.server;
  if (!p.private_key_path.empty()) {
    try {
      o.auth = hil::session::server_auth{
          hil::iperf3::rsa_key::private_from_pem(
              hil::sys::read_text_file(p.private_key_path, 64 * 1024), p.private_key_path),
          p.users_path, std::chrono::seconds(p.skew_threshold), p.accept_pkcs1};
      (void)hil::sys::read_text_file(p.users_path, 1 << 20);  // unreadable: say so now, not later
    } catch (const std::system_error& e) {
      std::cerr << "hilperf-peer: " << e.what() << '\n';
      return false;
    }
  }
  o.idle_timeout = std::chrono::seconds(p.idle_timeout);
  o.max_duration = std::chrono::seconds(p.max_duration);
  o.rcv_timeout = std::chrono::milliseconds(p.rcv_timeout_ms);
  o.log = log_line;
  o.server_output = hil::report::format_server_output;  // for clients with --get-server-output
  if (!p.socket_count_only) o.xdp_counter = hil::peer::xdp_frame_counter();
  return true;
}

// The iperf 2 server running on a thread of its own; stopped and joined when destroyed.
class iperf2_service {
 public:
  // Serves iperf 2 clients as p asks (none for port 0). The default port taken (a stock iperf -s
  // on this PC, say) is logged and must not stop the iperf3 server; a port asked for throws.
  explicit iperf2_service(const peer_options& p) {
    if (p.iperf2_port == 0) return;
    hil::session::iperf2_server_options o2;
    o2.bind_address = p.server.bind_address;
    o2.port = static_cast<std::uint16_t>(p.iperf2_port);
    o2.log = [](const std::string& line) { log_line("iperf 2: " + line); };
    try {
      server_ = std::make_unique<hil::session::iperf2_server>(o2);
    } catch (const std::system_error& e) {
      if (p.iperf2_option->count() > 0) throw;
      log_line(fmt::format("iperf 2 clients not served: {}", e.what()));
    }
    if (server_) {
      thread_ = std::thread([this] { server_->run(); });
      log_line(fmt::format("iperf 2 clients on port {} (TCP and UDP)", server_->port()));
    }
  }
  iperf2_service(const iperf2_service&) = delete;
  iperf2_service& operator=(const iperf2_service&) = delete;
  ~iperf2_service() {
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::unique_ptr<hil::session::iperf2_server> server_;
  std::thread thread_;
};

// Serves until stopped (--one-off, --idle-timeout, SIGINT or SIGTERM): the exit code, 1 when the
// server cannot serve.
int serve(const peer_options& p) {
  const auto& o = p.server;
  // SIGINT/SIGTERM stop the server from a normal thread (stop() is not async-signal-safe).
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  try {
    hil::session::server server(o);
    if (o.auth) {
      log_line(fmt::format("authentication required: {}-bit RSA key, users in {}",
                           o.auth->private_key.bits(), o.auth->users_path));
    }
    const iperf2_service iperf2(p);
    log_line(fmt::format("listening on port {}", server.port()));
    std::thread([&server, stop_signals] {
      int sig = 0;
      sigwait(&stop_signals, &sig);
      log_line(fmt::format("signal {}: stopping", sig));
      server.stop();
    }).detach();
    const int tests = server.run();
    log_line(fmt::format("stopped after {} test(s)", tests));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-peer: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("hilperf-peer: iperf3-compatible server (stock iperf3 clients and hilperf)");
  peer_options p;
  declare_options(app, p);
  CLI11_PARSE(app, argc, argv);
  if (!complete_server_options(p)) return 2;
  return serve(p);
}
