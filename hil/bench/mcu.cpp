#include "hil/bench/mcu.hpp"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "hil/sys/netns.hpp"
#include "hil/sys/unique_fd.hpp"

namespace hil::bench {
namespace {

using namespace std::chrono_literals;

// Whether a TCP connection to host:port succeeds from the calling thread's namespace.
bool answers(const std::string& host, const std::string& port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) return false;
  bool ok = false;
  for (const addrinfo* a = found; a != nullptr && !ok; a = a->ai_next) {
    const sys::unique_fd fd(::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, 0));
    ok = fd.get() >= 0 && ::connect(fd.get(), a->ai_addr, a->ai_addrlen) == 0;
  }
  ::freeaddrinfo(found);
  return ok;
}

bool answers_in(const std::string& netns, const std::string& host, const std::string& port) {
  return sys::run_in_netns(netns, [&] { return answers(host, port) ? 0 : 1; }) == 0;
}

}  // namespace

mcu_session::mcu_session(const profile::profile& p, const std::filesystem::path& mcu_binary) {
  const std::string& where = p.console.port;
  if (!where.starts_with("tcp://")) {
    std::error_code ec;
    if (std::filesystem::exists(where, ec)) return;  // one is there already
    start_mcu(p, mcu_binary, where);
    return;
  }
  const std::string address = where.substr(6);
  const auto colon = address.rfind(':');
  if (colon == std::string::npos) return;  // the profile's port check names it when the case opens
  const std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  if (answers_in(p.peer_netns(), host, port)) return;  // a console server answers already
  std::string pattern = (std::filesystem::temp_directory_path() / "hilperf-mcu-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "a directory for the simulated MCU");
  }
  dir_ = pattern;
  start_mcu(p, mcu_binary, (dir_ / "console").string());
  serve_on_tcp(p, host, port);
}

void mcu_session::start_mcu(const profile::profile& p, const std::filesystem::path& mcu_binary,
                            const std::string& link) {
  mcu_ = std::make_unique<sys::child_process>(
      std::vector<std::string>{"ip", "netns", "exec", p.dut_netns(), mcu_binary.string(),
                               "--dialect", "st67w6x", "--link", link});
  if (!mcu_->wait_for_output("console ", 10s)) {
    const std::string output = mcu_->output();
    mcu_.reset();
    throw std::runtime_error("the simulated MCU (" + mcu_binary.string() + ") did not come up in " +
                             p.dut_netns() + ": " + output);
  }
}

void mcu_session::serve_on_tcp(const profile::profile& p, const std::string& host,
                               const std::string& port) {
  const auto config = dir_ / "ser2net.yaml";
  std::ofstream(config) << "connection: &mcu\n  accepter: tcp," << host << ',' << port
                        << "\n  connector: serialdev," << (dir_ / "console").string()
                        << ",921600n81,local\n  options:\n    kickolduser: true\n";
  ser2net_ = std::make_unique<sys::child_process>(std::vector<std::string>{
      "ip", "netns", "exec", p.peer_netns(), "ser2net", "-n", "-c", config.string()});
  for (int i = 0; i < 50; ++i) {
    if (answers_in(p.peer_netns(), host, port)) return;
    std::this_thread::sleep_for(100ms);
  }
  throw std::runtime_error("ser2net did not serve the simulated MCU on " + host + ":" + port +
                           " in " + p.peer_netns() + ": " + ser2net_->output());
}

mcu_session::~mcu_session() {
  ser2net_.reset();  // child_process stops each: SIGTERM, then waits
  mcu_.reset();
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

}  // namespace hil::bench
