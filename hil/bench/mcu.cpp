#include "hil/bench/mcu.hpp"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "hil/bench/peer.hpp"
#include "hil/sys/netns.hpp"

namespace hil::bench {
namespace {

using namespace std::chrono_literals;

// Whether something accepts TCP connections at host:port in netns within timeout (peer_answers,
// from that namespace).
bool answers_in(const std::string& netns, const std::string& host, std::uint16_t port,
                std::chrono::milliseconds timeout) {
  return sys::run_in_netns(netns, [&] { return peer_answers(host, port, timeout) ? 0 : 1; }) == 0;
}

// The emulator's --dialect for the profile's console.dialect (hil::firmware's dialect names).
const char* dialect_flag(profile::firmware_dialect d) {
  switch (d) {
    case profile::firmware_dialect::zperf:
      return "zperf";
    case profile::firmware_dialect::esp_idf:
      return "esp-idf";
    case profile::firmware_dialect::st67w6x:
      break;
  }
  return "st67w6x";
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
  const auto port = static_cast<std::uint16_t>(std::stoi(address.substr(colon + 1)));
  if (answers_in(p.peer_netns(), host, port, 300ms)) return;  // a console server answers already
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
  std::vector<std::string> argv{"ip",
                                "netns",
                                "exec",
                                p.dut_netns(),
                                mcu_binary.string(),
                                "--dialect",
                                dialect_flag(p.console.dialect),
                                "--link",
                                link};
  if (!p.console.reset_command.empty()) {
    argv.insert(argv.end(), {"--reset-command", p.console.reset_command});
  }
  mcu_ = std::make_unique<sys::child_process>(std::move(argv));
  if (!mcu_->wait_for_output("console ", 10s)) {
    const std::string output = mcu_->output();
    mcu_.reset();
    throw std::runtime_error("the simulated MCU (" + mcu_binary.string() + ") did not come up in " +
                             p.dut_netns() + ": " + output);
  }
}

void mcu_session::serve_on_tcp(const profile::profile& p, const std::string& host,
                               std::uint16_t port) {
  const auto config = dir_ / "ser2net.yaml";
  std::ofstream(config) << "connection: &mcu\n  accepter: tcp," << host << ',' << port
                        << "\n  connector: serialdev," << (dir_ / "console").string()
                        << ",921600n81,local\n  options:\n    kickolduser: true\n";
  ser2net_ = std::make_unique<sys::child_process>(std::vector<std::string>{
      "ip", "netns", "exec", p.peer_netns(), "ser2net", "-n", "-c", config.string()});
  if (answers_in(p.peer_netns(), host, port, 5s)) return;
  throw std::runtime_error("ser2net did not serve the simulated MCU on " + host + ":" +
                           std::to_string(port) + " in " + p.peer_netns() + ": " +
                           ser2net_->output());
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
