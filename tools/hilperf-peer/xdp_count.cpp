#include "xdp_count.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "hil/xdp/frame_counter.hpp"

namespace hil::peer {
namespace {

// The interface that holds address (numeric IPv4 or IPv6), or system_error naming it.
std::string interface_holding(const std::string& address) {
  in6_addr want6{};
  in_addr want4{};
  const bool v4 = ::inet_pton(AF_INET, address.c_str(), &want4) == 1;
  if (!v4 && ::inet_pton(AF_INET6, address.c_str(), &want6) != 1) {
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            fmt::format("\"{}\" is not a numeric IP address", address));
  }
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) {
    throw std::system_error(errno, std::generic_category(), "listing the interfaces' addresses");
  }
  std::string found;
  for (const ifaddrs* a = list; a != nullptr && found.empty(); a = a->ifa_next) {
    if (a->ifa_addr == nullptr) continue;
    if (v4 && a->ifa_addr->sa_family == AF_INET &&
        reinterpret_cast<const sockaddr_in*>(a->ifa_addr)->sin_addr.s_addr == want4.s_addr) {
      found = a->ifa_name;
    } else if (!v4 && a->ifa_addr->sa_family == AF_INET6 &&
               std::memcmp(&reinterpret_cast<const sockaddr_in6*>(a->ifa_addr)->sin6_addr, &want6,
                           sizeof(want6)) == 0) {
      found = a->ifa_name;
    }
  }
  ::freeifaddrs(list);
  if (found.empty()) {
    throw std::system_error(std::make_error_code(std::errc::no_such_device),
                            fmt::format("no interface holds {}", address));
  }
  return found;
}

class xdp_hook final : public session::frame_count_hook {
 public:
  xdp_hook(const std::string& ifname, std::uint16_t port)
      : counter_(ifname, {port}, xdp::on_match::drop),
        rx_at_start_(counter_.read().interface.rx_packets) {}

  [[nodiscard]] std::string attach_mode() const override {
    return std::string(xdp::to_string(counter_.attachment().mode()));
  }
  [[nodiscard]] std::string why_not_native() const override {
    if (counter_.attachment().mode() == xdp::attach_mode::native) return {};
    return counter_.attachment().native_refused();
  }
  [[nodiscard]] session::frame_tally read() override {
    const auto c = counter_.read();
    return {c.flows.front().frames, c.flows.front().bytes, c.other.frames,
            c.interface.rx_packets - rx_at_start_};
  }

 private:
  xdp::frame_counter counter_;
  std::uint64_t rx_at_start_;
};

}  // namespace

session::frame_count_attach xdp_frame_counter() {
  return [](const std::string& local_address,
            std::uint16_t udp_port) -> std::unique_ptr<session::frame_count_hook> {
    const auto ifname = interface_holding(local_address);
    try {
      return std::make_unique<xdp_hook>(ifname, udp_port);
    } catch (const std::system_error& e) {
      throw std::system_error(e.code(), fmt::format("XDP on {}: {}", ifname, e.what()));
    }
  };
}

}  // namespace hil::peer
