#include "hil/xdp/netns_port.hpp"

#include <exception>
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

}  // namespace

napi_thread::napi_thread(std::string netns, std::string ifname)
    : netns_(std::move(netns)), ifname_(std::move(ifname)) {
  gro_before_ = gro_of(netns_, ifname_);
  const auto threaded =
      sys::run_checked(in_netns(netns_, "cat /sys/class/net/" + ifname_ + "/threaded"));
  threaded_before_ = threaded.starts_with("1") ? "1" : "0";
  sys::run_checked(in_netns(
      netns_,
      "ethtool -K " + ifname_ + " gro on && echo 1 > /sys/class/net/" + ifname_ + "/threaded"));
}

napi_thread::~napi_thread() {
  try {
    sys::run_checked(in_netns(netns_, "echo " + threaded_before_ + " > /sys/class/net/" + ifname_ +
                                          "/threaded && ethtool -K " + ifname_ + " gro " +
                                          gro_before_));
  } catch (const std::exception& e) {
    sys::report_destructor_failure(
        "napi_thread", ifname_ + " in " + netns_ + ": threaded and GRO not put back: " + e.what());
  }
}

netns_port::netns_port(const std::string& netns, const std::string& ifname, const port_setting& s)
    : netns_(netns), napi_(netns, ifname) {
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
