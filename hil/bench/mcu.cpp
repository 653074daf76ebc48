#include "hil/bench/mcu.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace hil::bench {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view tcp_scheme = "tcp://";
constexpr std::string_view rfc2217_scheme = "rfc2217://";

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
  const bool rfc2217 = where.starts_with(rfc2217_scheme);
  if (!rfc2217 && !where.starts_with(tcp_scheme)) {
    std::error_code ec;
    if (std::filesystem::exists(where, ec)) return;  // one is there already
    start_mcu(p, mcu_binary, where);
    return;
  }
  const std::string address = where.substr(rfc2217 ? rfc2217_scheme.size() : tcp_scheme.size());
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
  ser2net_ = std::make_unique<ser2net_server>(
      p.peer_netns(), host, port, dir_ / "console",
      rfc2217 ? console_protocol::rfc2217 : console_protocol::raw, dir_ / "ser2net.yaml");
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

mcu_session::~mcu_session() {
  ser2net_.reset();  // each stopped by SIGTERM, then waited for
  mcu_.reset();
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

}  // namespace hil::bench
