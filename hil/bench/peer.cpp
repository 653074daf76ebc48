#include "hil/bench/peer.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"
#include "hil/sys/unique_fd.hpp"

namespace hil::bench {
namespace {

using clock = std::chrono::steady_clock;

// One connect attempt bounded by timeout; true when it connected.
bool try_connect(const sockaddr_storage& to, socklen_t len, std::chrono::milliseconds timeout) {
  const sys::unique_fd fd(::socket(to.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) return false;
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&to), len) == 0) return true;
  if (errno != EINPROGRESS) return false;
  pollfd p{fd.get(), POLLOUT, 0};
  if (::poll(&p, 1, static_cast<int>(timeout.count())) != 1) return false;
  int err = 0;
  socklen_t err_len = sizeof(err);
  ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &err_len);
  return err == 0;
}

// A daemon whose starter already exited is reaped by init; until then it is a zombie: gone.
bool is_zombie(pid_t pid) {
  std::ifstream in(fmt::format("/proc/{}/stat", pid));
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z';
}

}  // namespace

bool peer_answers(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout) {
  sockaddr_storage to{};
  socklen_t len = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&to);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&to);
  if (::inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    len = sizeof(*v4);
  } else if (::inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    len = sizeof(*v6);
  } else {
    throw std::invalid_argument("not an IP address: " + host);
  }
  const auto deadline = clock::now() + timeout;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    if (left.count() <= 0) return false;
    if (try_connect(to, len, std::min(left, std::chrono::milliseconds(1000)))) return true;
    // Refused at once while the server starts: wait a little before the next attempt.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void require_peer(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout) {
  if (peer_answers(host, port, timeout)) return;
  throw std::system_error(
      std::make_error_code(std::errc::host_unreachable),
      fmt::format("the peer {}:{} does not answer within {} s — is `iperf3 -s -p {}` (or "
                  "hilperf-peer) running there? same subnet? a firewall blocking port {}?",
                  host, port, timeout.count() / 1000.0, port, port));
}

std::string netserver_path() {
  const char* env = std::getenv("HILPERF_NETSERVER");  // NOLINT(concurrency-mt-unsafe)
  if (env != nullptr && *env != '\0') return env;
  const char* path = std::getenv("PATH");  // NOLINT(concurrency-mt-unsafe)
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const auto candidate = std::filesystem::path(dir) / "netserver";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  throw std::system_error(
      std::make_error_code(std::errc::no_such_file_or_directory),
      "peer.server = \"netserver\" needs netperf's netserver on the simulated bench: set "
      "HILPERF_NETSERVER=<path> or put it on PATH (netperf is not in Debian main; build it from "
      "HewlettPackard/netperf)");
}

namespace {

// iperf 2's two servers for `sh -c`, each restarted when it dies: Debian's 2.1.8 crashes now and
// then (a segfault after some -P and --full-duplex tests, a GPF after lossy unpaced UDP;
// docs/iperf2-protocol.md §6), and without a supervisor every case after it would find no server.
// Each exit is logged; the test running at that moment fails, as it should.
std::string supervised_iperf2_servers(const std::string& port) {
  const auto loop = [&](const std::string& server) {
    return fmt::format(
        "while :; do {0}; echo \"hilperf: {0} exited with status $?, restarting\" >&2; sleep 0.2; "
        "done",
        server);
  };
  return fmt::format("{} & {}", loop("iperf -s -V -p " + port), loop("iperf -s -u -V -p " + port));
}

}  // namespace

std::vector<std::string> sim_peer_command(const profile::profile& p,
                                          const std::filesystem::path& peer_binary) {
  const std::string port = std::to_string(p.peer.port);
  if (p.peer.server == profile::peer_server::iperf3) {
    return {"iperf3", "-s", "--forceflush", "-p", port};
  }
  if (p.peer.server == profile::peer_server::iperf2) {
    // iperf 2 serves TCP and UDP from two processes; both are in the daemon's process group
    // (start_daemon's setsid), which stop_daemon signals as a whole.
    return {"sh", "-c", supervised_iperf2_servers(port)};
  }
  if (p.peer.server == profile::peer_server::netserver) {
    // netserver for NetperfSuite beside hilperf-peer for every other case, one process group.
    return {"sh", "-c",
            fmt::format("{} -D -N -p {} & exec {} -s -p {}", netserver_path(),
                        p.peer.netserver_port, peer_binary.string(), port)};
  }
  return {peer_binary.string(), "-s", "-p", port};
}

pid_t start_daemon(const std::string& netns, const std::vector<std::string>& argv,
                   const std::filesystem::path& log, const std::filesystem::path& pidfile) {
  const sys::unique_fd out(::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  if (!out) sys::throw_last_errno("cannot open the peer log " + log.string());
  std::vector<std::string> full{"ip", "netns", "exec", netns};
  full.insert(full.end(), argv.begin(), argv.end());
  std::vector<char*> args;
  for (auto& a : full) args.push_back(a.data());
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) sys::throw_last_errno("fork for the peer");
  if (pid == 0) {
    ::setsid();  // outlives the testbed process that started it
    ::dup2(out.get(), STDOUT_FILENO);
    ::dup2(out.get(), STDERR_FILENO);
    const int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, STDIN_FILENO);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  std::ofstream(pidfile) << pid << '\n';
  return pid;
}

bool stop_daemon(const std::filesystem::path& pidfile, std::chrono::milliseconds grace) {
  std::ifstream in(pidfile);
  pid_t pid = 0;
  if (!(in >> pid) || pid <= 0) return false;
  in.close();
  std::filesystem::remove(pidfile);
  // The daemon leads its own process group (setsid in start_daemon): signal all of it, so helper
  // processes it started (iperf 2's second server) go too.
  const auto signal_all = [pid](int sig) {
    return ::kill(-pid, sig) == 0 || ::kill(pid, sig) == 0;
  };
  if (!signal_all(SIGTERM)) return true;  // already gone
  const auto deadline = clock::now() + grace;
  while (clock::now() < deadline) {
    if (::waitpid(pid, nullptr, WNOHANG) == pid || ::kill(pid, 0) != 0 || is_zombie(pid)) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  signal_all(SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return true;
}

std::vector<std::string> ssh_command(const profile::profile& p, const std::string& remote_command) {
  std::vector<std::string> argv;
  std::istringstream words(p.peer.ssh_command);
  for (std::string w; words >> w;) argv.push_back(w);
  argv.push_back(p.peer.ssh_target);
  argv.push_back(remote_command);
  return argv;
}

std::string start_ssh_peer(const profile::profile& p, const std::filesystem::path& pidfile) {
  const std::string port = std::to_string(p.peer.port);
  std::string server = "hilperf-peer -s -p " + port;
  if (p.peer.server == profile::peer_server::iperf3) server = "iperf3 -s -p " + port;
  if (p.peer.server == profile::peer_server::iperf2) {
    // setsid: the two servers form a process group that stop_peer kills as one.
    server = fmt::format("setsid sh -c '{}'", supervised_iperf2_servers(port));
  }
  const std::string remote =
      fmt::format("nohup {} > /tmp/hilperf-peer-{}.log 2>&1 < /dev/null & echo $!", server, port);
  const auto r = sys::run(ssh_command(p, remote), std::chrono::seconds(30));
  std::string pid = r.output.substr(0, r.output.find_last_not_of(" \r\n") + 1);
  pid = pid.substr(pid.find_last_of('\n') + 1);  // the last line: warnings may come first
  if (r.exit_code != 0 || pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) {
    throw std::system_error(
        std::make_error_code(std::errc::host_unreachable),
        fmt::format("cannot start the peer on {} over ssh ({}): {}", p.peer.ssh_target,
                    sys::quote_command(ssh_command(p, remote)), r.output));
  }
  std::ofstream(pidfile) << "ssh " << pid << '\n';
  return pid;
}

bool stop_peer(const profile::profile& p, const std::filesystem::path& pidfile) {
  std::ifstream in(pidfile);
  std::string kind;
  std::string pid;
  if (!(in >> kind)) return false;
  if (kind != "ssh") {
    in.close();
    return stop_daemon(pidfile);
  }
  in >> pid;
  in.close();
  std::filesystem::remove(pidfile);
  // A process group when the peer is one (iperf 2's two servers), else the process.
  sys::run(ssh_command(p, fmt::format("kill -- -{0} 2>/dev/null || kill {0}", pid)),
           std::chrono::seconds(30));
  return true;
}

peer_session::peer_session(const profile::profile& p, const std::filesystem::path& peer_binary) {
  using namespace std::chrono_literals;
  const auto answers = [&](std::chrono::milliseconds t) {
    return sys::run_in_netns(p.dut_netns(), [&] {
             return peer_answers(p.peer.ipv4, p.peer.port, t) ? 0 : 1;
           }) == 0;
  };
  if (answers(300ms)) return;
  const auto dir = std::filesystem::temp_directory_path();
  pidfile_ = dir / fmt::format("hilperf-peer-{}.pid", ::getpid());
  log_ = dir / fmt::format("hilperf-peer-{}.log", ::getpid());
  start_daemon(p.peer_netns(), sim_peer_command(p, peer_binary), log_, pidfile_);
  if (!answers(10s)) {
    stop_daemon(pidfile_);
    std::ifstream in(log_);
    const std::string output((std::istreambuf_iterator<char>(in)), {});
    throw std::system_error(
        std::make_error_code(std::errc::host_unreachable),
        fmt::format("the sim peer did not answer on {}:{} within 10 s; its output: {}", p.peer.ipv4,
                    p.peer.port, output));
  }
}

peer_session::~peer_session() {
  if (pidfile_.empty()) return;
  try {
    stop_daemon(pidfile_);
    std::filesystem::remove(log_);
  } catch (const std::exception& e) {
    sys::report_destructor_failure("peer_session", e.what());
  }
}

}  // namespace hil::bench
