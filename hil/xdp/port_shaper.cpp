#include "hil/xdp/port_shaper.hpp"

#include <vector>

#include "hil/xdp/bpf/xdp_abi.h"

namespace hil::xdp {
namespace {

static_assert(sizeof(hil_port_count) % 8 == 0, "per-CPU values are read in 8-byte strides");

constexpr std::uint32_t key0 = 0;

}  // namespace

port_shaper::port_shaper(const std::string& ifname, const port_setting& s, attach_preference pref)
    : program_(program_kind::port_shaper, ifname, pref) {
  configure(s);
}

void port_shaper::configure(const port_setting& s) {
  const port_config c = config_of(s);
  const std::vector<hil_port_count> zeros(program_.possible_cpus());
  for (const std::uint32_t slot : {HIL_XDP_PORT_PASSED, HIL_XDP_PORT_DROPPED}) {
    program_.update("port_counts", &slot, zeros.data());
  }
  // The generation last: the program resets its bucket when it sees it change.
  hil_port_config cfg{};
  cfg.rate_bps = c.rate_bps;
  cfg.bucket_bits = c.bucket_bits;
  cfg.generation = ++generation_;
  cfg.overhead_bytes = c.overhead_bytes;
  cfg.min_frame_bytes = c.min_frame_bytes;
  program_.update("port_cfg", &key0, &cfg);
  config_ = c;
}

port_tally port_shaper::sum(std::uint32_t slot) const {
  port_tally t;
  for (const auto& c : program_.lookup_per_cpu<hil_port_count>("port_counts", &slot)) {
    t.frames += c.frames;
    t.bytes += c.bytes;
    t.wire_bytes += c.wire_bytes;
  }
  return t;
}

port_reading port_shaper::read() {
  port_reading out;
  out.passed = sum(HIL_XDP_PORT_PASSED);
  out.dropped = sum(HIL_XDP_PORT_DROPPED);
  hil_port_state st{};
  program_.lookup("port_state", &key0, &st, BPF_F_LOCK);
  if (st.generation == generation_) {  // otherwise no frame arrived since configure(): all zero
    out.bucket.tokens = st.tokens;
    out.bucket.first_ns = st.first_ns;
    out.bucket.last_ns = st.last_ns;
    out.bucket.full_ns = st.full_ns;
    out.bucket.overflow_units = st.overflow_units;
  } else {
    out.bucket.tokens = config_.bucket_bits * ns_per_s;
  }
  out.interface = link_.counters(program_.ifname());
  return out;
}

}  // namespace hil::xdp
