#include "hil/xdp/netns_port.hpp"

#include <exception>
#include <filesystem>
#include <fstream>
#include <set>
#include <string_view>
#include <system_error>
#include <utility>

#include "hil/sys/error.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"

namespace hil::xdp {
namespace {

// The command run inside netns, as `ip netns exec` runs it (a fresh sysfs showing its interfaces).
std::vector<std::string> in_netns(const std::string& netns, const std::string& shell) {
  return {"ip", "netns", "exec", netns, "sh", "-c", shell};
}

// "on" or "off": ethtool's generic-receive-offload line for ifname.
std::string gro_of(const std::string& netns, const std::string& ifname) {
  const auto text = sys::run_checked({"ip", "netns", "exec", netns, "ethtool", "-k", ifname});
  constexpr std::string_view key = "generic-receive-offload: ";
  const auto at = text.find(key);
  if (at == std::string::npos) {
    throw std::system_error(
        std::make_error_code(std::errc::not_supported),
        "ethtool -k " + ifname + " in " + netns + " names no generic-receive-offload");
  }
  return text.compare(at + key.size(), 2, "on") == 0 ? "on" : "off";
}

// The kernel threads that poll ifname's NAPI ("napi/<ifname>-<id>"), by pid.
std::set<std::string> napi_threads_of(const std::string& ifname) {
  std::set<std::string> pids;
  const std::string prefix = "napi/" + ifname + "-";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const auto pid = entry.path().filename().string();
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string comm;
    std::getline(std::ifstream(entry.path() / "comm"), comm);
    if (comm.starts_with(prefix)) pids.insert(pid);
  }
  return pids;
}

}  // namespace

napi_thread::napi_thread(std::string netns, std::string ifname, int cpu)
    : netns_(std::move(netns)), ifname_(std::move(ifname)) {
  gro_before_ = gro_of(netns_, ifname_);
  const auto threaded =
      sys::run_checked(in_netns(netns_, "cat /sys/class/net/" + ifname_ + "/threaded"));
  threaded_before_ = threaded.starts_with("1") ? "1" : "0";
  const auto before = napi_threads_of(ifname_);
  sys::run_checked(in_netns(
      netns_,
      "ethtool -K " + ifname_ + " gro on && echo 1 > /sys/class/net/" + ifname_ + "/threaded"));
  // The threads that appeared are this interface's (names are not unique across namespaces). Each
  // real-time, as a NIC's port waits for no scheduler: a normal thread sharing a core with the
  // peer's receiver was held up past the veth's 256-frame ring at 67,000 frames/s of 1518 bytes.
  for (const auto& pid : napi_threads_of(ifname_)) {
    if (!before.contains(pid)) {
      sys::run_checked({"chrt", "-f", "-p", "50", pid});
      if (cpu >= 0) sys::run_checked({"taskset", "-pc", std::to_string(cpu), pid});
      realtime_.push_back(pid);
    }
  }
}

napi_thread::~napi_thread() {
  for (const auto& pid : realtime_) {
    try {
      (void)sys::run({"chrt", "-o", "-p", "0", pid});  // the thread may be gone already
    } catch (const std::exception& e) {
      sys::report_destructor_failure("napi_thread", e.what());
    }
  }
  try {
    sys::run_checked(in_netns(netns_, "echo " + threaded_before_ + " > /sys/class/net/" + ifname_ +
                                          "/threaded && ethtool -K " + ifname_ + " gro " +
                                          gro_before_));
  } catch (const std::exception& e) {
    sys::report_destructor_failure(
        "napi_thread", ifname_ + " in " + netns_ + ": threaded and GRO not put back: " + e.what());
  }
}

netns_port::netns_port(const std::string& netns, const std::string& ifname, const port_setting& s,
                       int napi_cpu)
    : netns_(netns), napi_(netns, ifname, napi_cpu) {
  try {
    sys::with_socket_namespace(netns_, [&] { shaper_ = std::make_unique<port_shaper>(ifname, s); });
  } catch (const std::system_error& e) {
    throw std::system_error(e.code(),
                            "the emulated port on " + ifname + " in " + netns_ + ": " + e.what());
  }
}

netns_port::~netns_port() {
  try {
    sys::with_socket_namespace(netns_, [&] { shaper_.reset(); });
  } catch (const std::exception& e) {
    sys::report_destructor_failure("netns_port", e.what());
  }
}

port_reading netns_port::read() {
  port_reading r;
  sys::with_socket_namespace(netns_, [&] { r = shaper_->read(); });
  return r;
}

}  // namespace hil::xdp
