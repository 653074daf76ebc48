#include "hil/bench/ser2net.hpp"

#include <fstream>
#include <stdexcept>
#include <vector>

#include "hil/bench/peer.hpp"
#include "hil/sys/netns.hpp"

namespace hil::bench {

using namespace std::chrono_literals;

bool answers_in(const std::string& netns, const std::string& host, std::uint16_t port,
                std::chrono::milliseconds timeout) {
  return sys::run_in_netns(netns, [&] { return peer_answers(host, port, timeout) ? 0 : 1; }) == 0;
}

ser2net_server::ser2net_server(const std::string& netns, const std::string& host,
                               std::uint16_t port, const std::filesystem::path& device,
                               console_protocol protocol, const std::filesystem::path& config) {
  // kickolduser: a case that opens the console while an earlier one still holds it (a probe, a
  // crashed run) takes it over instead of being refused.
  std::ofstream(config) << "connection: &mcu\n  accepter: "
                        << (protocol == console_protocol::rfc2217 ? "telnet(rfc2217),tcp," : "tcp,")
                        << host << ',' << port << "\n  connector: serialdev," << device.string()
                        << ",921600n81,local\n  options:\n    kickolduser: true\n";
  process_ = std::make_unique<sys::child_process>(std::vector<std::string>{
      "ip", "netns", "exec", netns, "ser2net", "-n", "-c", config.string()});
  if (answers_in(netns, host, port, 5s)) return;
  throw std::runtime_error("ser2net did not serve " + device.string() + " on " + host + ":" +
                           std::to_string(port) + " in " + netns + ": " + process_->output());
}

}  // namespace hil::bench
