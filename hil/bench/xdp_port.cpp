#include "hil/bench/xdp_port.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

#include "hil/sys/child_process.hpp"
#include "hil/sys/process.hpp"

namespace hil::bench {

std::uint64_t xdp_bucket_bytes(int frame_bytes, int max_frame_bytes) {
  constexpr std::uint64_t frame_cost = 20;  // preamble and start delimiter 8, gap 12
  return std::max(veth_ring_frames * (static_cast<std::uint64_t>(frame_bytes) + frame_cost),
                  2 * (static_cast<std::uint64_t>(max_frame_bytes) + frame_cost));
}

xdp_ethernet_port::xdp_ethernet_port(sim_layout l, int mbit, std::uint64_t bucket_bytes,
                                     const std::filesystem::path& port_binary, int napi_cpu)
    : layout_(std::move(l)), mbit_(mbit), bucket_bytes_(bucket_bytes) {
  shape(layout_.dut_netns, layout_.dut_interface, 0);
  try {
    shape(layout_.peer_netns, layout_.peer_interface, 0);
    std::vector<std::string> argv{port_binary.string(), "--mbit", std::to_string(mbit),
                                  "--bucket-bytes", std::to_string(bucket_bytes)};
    if (napi_cpu >= 0) argv.insert(argv.end(), {"--napi-cpu", std::to_string(napi_cpu)});
    argv.push_back(layout_.dut_netns + ":" + layout_.dut_interface);
    argv.push_back(layout_.peer_netns + ":" + layout_.peer_interface);
    program_ = std::make_unique<sys::child_process>(std::move(argv));
    if (!program_->wait_for_output("\nready\n", std::chrono::seconds(20))) {
      throw std::system_error(std::make_error_code(std::errc::operation_not_supported),
                              "the simulated port in XDP (sim.frame_port = \"xdp\") did not "
                              "start: " +
                                  program_->output());
    }
  } catch (...) {
    program_.reset();
    restore_shaping(layout_);
    throw;
  }
}

std::chrono::milliseconds xdp_ethernet_port::drain_time() const {
  const double bits = 8.0 * static_cast<double>(bucket_bytes_);
  return std::chrono::milliseconds(static_cast<long>(std::ceil(1000 * bits / (mbit_ * 1e6))));
}

std::uint64_t xdp_ethernet_port::peer_end_drops() const {
  std::istringstream lines(sys::run_checked(
      {"ip", "netns", "exec", layout_.peer_netns, "ethtool", "-S", layout_.peer_interface}));
  std::uint64_t drops = 0;
  for (std::string name, value; lines >> name >> value;) {
    if (name.starts_with("rx_queue_") && name.ends_with("_xdp_drops:")) drops += std::stoull(value);
  }
  return drops;
}

std::string xdp_ethernet_port::description() const {
  const auto text = program_->output();
  return text.substr(0, text.find("ready\n"));
}

xdp_ethernet_port::~xdp_ethernet_port() {
  const int status = program_->stop(std::chrono::seconds(10));
  const auto text = program_->output();
  if (status != 0) {
    std::cerr << "hilperf: the simulated port in XDP did not stop cleanly (exit status " << status
              << "): " << text << '\n';
  } else if (const auto at = text.find("\nready\n"); at != std::string::npos) {
    std::cout << text.substr(at + 7);  // each end's passed and dropped frames: the case's log
  }
  restore_shaping(layout_);
}

}  // namespace hil::bench
