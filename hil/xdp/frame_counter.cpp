#include "hil/xdp/frame_counter.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "hil/xdp/bpf/xdp_abi.h"

namespace hil::xdp {
namespace {

static_assert(sizeof(hil_flow_count) % 8 == 0, "per-CPU values are read in 8-byte strides");

std::vector<std::uint16_t> checked(const std::vector<std::uint16_t>& ports) {
  if (ports.size() > HIL_XDP_MAX_FLOWS) {
    throw std::invalid_argument(
        fmt::format("XDP frame counter: {} flows, at most {}", ports.size(), HIL_XDP_MAX_FLOWS));
  }
  if (std::find(ports.begin(), ports.end(), 0) != ports.end()) {
    throw std::invalid_argument("XDP frame counter: UDP port 0 names no flow");
  }
  if (std::set<std::uint16_t>(ports.begin(), ports.end()).size() != ports.size()) {
    throw std::invalid_argument("XDP frame counter: a UDP port is declared twice");
  }
  return ports;
}

}  // namespace

frame_counter::frame_counter(const std::string& ifname, const std::vector<std::uint16_t>& udp_ports,
                             on_match action, attach_preference pref)
    : ports_(checked(udp_ports)), program_(program_kind::frame_counter, ifname, pref) {
  // The counts start at 0 (a fresh map) and the flows are declared before the action: until then
  // every frame is "other" and passes.
  for (std::uint32_t slot = 0; slot < ports_.size(); ++slot) {
    const std::uint16_t port = ports_[slot];
    program_.update("flow_slots", &port, &slot);
  }
  const hil_counter_config cfg{static_cast<__u32>(action == on_match::drop ? XDP_DROP : XDP_PASS),
                               0};
  const std::uint32_t key = 0;
  program_.update("counter_cfg", &key, &cfg);
}

flow_tally frame_counter::sum(std::uint32_t slot) const {
  flow_tally t;
  for (const auto& c : program_.lookup_per_cpu<hil_flow_count>("flow_counts", &slot)) {
    t.frames += c.frames;
    t.bytes += c.bytes;
  }
  return t;
}

frame_count frame_counter::read() {
  frame_count out;
  for (std::uint32_t slot = 0; slot < ports_.size(); ++slot) {
    auto t = sum(slot);
    t.udp_port = ports_[slot];
    out.flows.push_back(t);
  }
  out.other = sum(HIL_XDP_OTHER_SLOT);
  out.interface = link_.counters(program_.ifname());
  return out;
}

void frame_counter::zero() {
  const std::vector<hil_flow_count> zeros(program_.possible_cpus());
  for (std::uint32_t slot = 0; slot <= HIL_XDP_OTHER_SLOT; ++slot) {
    program_.update("flow_counts", &slot, zeros.data());
  }
}

}  // namespace hil::xdp
