#include "frame_paths.hpp"

#include <fmt/format.h>

#include <iostream>

#include "board_port.hpp"
#include "hil/frame/batch_pacer.hpp"
#include "hil/frame/path_chain.hpp"
#include "hil/measure/frames.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"

namespace hil::bench_tool {
namespace {

using namespace std::chrono_literals;
using frame::tx_path;

// The flow's frames dropped at the peer's ingress (tc flower, before the IP stack) for this
// object's life, where a counting peer would drop them: a veth runs the peer's receive path in the
// sender's context, and without this every path's CPU figure would carry the peer's UDP lookup and
// ICMP. The peer's rx_packets still counts every frame (the veth counts before ingress). When tc
// refuses (no cls_flower), the trials run without it and the table says so.
class peer_drop {
 public:
  peer_drop(const bench::sim_layout& l, std::uint16_t port) : l_(l) {
    const auto qdisc = sys::run({"ip", "netns", "exec", l_.peer_netns, "tc", "qdisc", "add", "dev",
                                 l_.peer_interface, "clsact"});
    const auto filter =
        sys::run({"ip", "netns", "exec", l_.peer_netns, "tc", "filter", "add", "dev",
                  l_.peer_interface, "ingress", "protocol", "ip", "flower", "ip_proto", "udp",
                  "dst_port", std::to_string(port), "action", "drop"});
    active_ = qdisc.exit_code == 0;
    dropping_ = active_ && filter.exit_code == 0;
    if (!dropping_) why_ = filter.output.empty() ? qdisc.output : filter.output;
  }
  ~peer_drop() {
    if (active_) {
      (void)sys::run({"ip", "netns", "exec", l_.peer_netns, "tc", "qdisc", "del", "dev",
                      l_.peer_interface, "clsact"});
    }
  }
  peer_drop(const peer_drop&) = delete;
  peer_drop& operator=(const peer_drop&) = delete;
  [[nodiscard]] bool dropping() const { return dropping_; }
  [[nodiscard]] const std::string& why_not() const { return why_; }

 private:
  const bench::sim_layout& l_;
  bool active_ = false;
  bool dropping_ = false;
  std::string why_;
};

// One path's two trials, in the DUT's namespace (the calling thread is the sender).
path_figures run_path(tx_path p, const std::string& ifname, const frame::frame_template& t,
                      link::link_control& link, peer_link& peer, int seconds) {
  const std::uint32_t frame_bytes = t.spec().frame_bytes;
  path_figures f;
  f.name = frame::path_name(p);
  frame::chain_request req;
  req.ifname = ifname;
  std::unique_ptr<frame::frame_sender> sender;
  try {
    sender = frame::open_path(p, req, t);
  } catch (const frame::path_unavailable& e) {
    f.unavailable = std::string(frame::refusal_words(e.kind())) + ": " + e.what();
    return f;
  }
  f.name += " (" + sender->mode() + ")";
  frame::pace_plan plan;
  plan.duration = std::chrono::seconds(seconds);
  plan.batch = 64;
  std::uint64_t rx0 = peer.rx_packets();
  const auto unpaced = frame::run_paced(*sender, link, plan);
  std::uint64_t rx1 = peer.rx_packets();
  f.unpaced_link_fps = unpaced.link_per_second();
  f.unpaced_peer_fps = static_cast<double>(rx1 - rx0) / unpaced.seconds;
  f.cpu_per_million = unpaced.cpu_per_million();
  plan.batch = 32;
  plan.frames_per_second = measure::media_max_fps(1'000'000'000, frame_bytes);
  rx0 = peer.rx_packets();
  const auto paced = frame::run_paced(*sender, link, plan);
  rx1 = peer.rx_packets();
  f.batch = paced.batch;
  f.paced_rate = plan.frames_per_second;
  f.paced_link_fps = paced.link_per_second();
  f.paced_schedule_pct =
      100.0 * static_cast<double>(paced.accepted) / static_cast<double>(paced.scheduled);
  f.paced_kept = paced.schedule_kept();
  f.paced_peer_diff =
      static_cast<std::int64_t>(rx1 - rx0) - static_cast<std::int64_t>(paced.tx_packets);
  return f;
}

}  // namespace

std::vector<path_figures> measure_frame_paths(const bench::sim_layout& l, std::uint32_t frame_bytes,
                                              int seconds) {
  peer_link peer(l);
  const peer_drop drop(l, 45000);
  if (!drop.dropping()) {
    std::cerr << "hilperf-bench: the peer receives the flow through its IP stack (tc flower "
                 "refused: "
              << drop.why_not() << ")\n";
  }
  std::vector<path_figures> rows;
  sys::with_socket_namespace(l.dut_netns, [&] {
    link::link_control link;
    const frame::frame_template t(
        frame::flow_frame(link, l.dut_interface, sys::without_prefix(l.dut_ipv4),
                          sys::without_prefix(l.peer_ipv4), 40000, 45000, frame_bytes));
    for (const tx_path p : {tx_path::udp_socket, tx_path::af_packet_ring, tx_path::af_xdp}) {
      rows.push_back(run_path(p, l.dut_interface, t, link, peer, seconds));
    }
  });
  return rows;
}

void print_frame_paths(std::ostream& out, std::uint32_t frame_bytes,
                       const std::vector<path_figures>& rows) {
  const double media_max = measure::media_max_fps(1'000'000'000, frame_bytes);
  out << fmt::format(
      "\n{}-byte frames (1 GbE media maximum {:.0f}/s): unpaced onto the link, then paced at the "
      "maximum in batches of 32\n| {:<46} | {:>11} | {:>8} | {:>11} | {:>10} | {:>9} | {:>10} | "
      "{:>9} |\n",
      frame_bytes, media_max, "sender", "unpaced/s", "vs sock", "peer/s", "CPU s/Mfr", "vs sock",
      "paced %sch", "kept 0.1%");
  const path_figures* base = nullptr;
  for (const auto& r : rows) {
    if (r.unavailable.empty() && r.unpaced_link_fps > 0 && base == nullptr) base = &r;
  }
  for (const auto& r : rows) {
    if (!r.unavailable.empty()) {
      out << fmt::format("| {:<46} | unavailable: {}\n", r.name, r.unavailable);
      continue;
    }
    const auto ratio = [](double a, double b) {
      return b > 0 && a > 0 ? fmt::format("{:.2f}x", a / b) : std::string("-");
    };
    out << fmt::format(
        "| {:<46} | {:>11.0f} | {:>8} | {:>11.0f} | {:>10.3f} | {:>9} | {:>10} | {:>9} |\n", r.name,
        r.unpaced_link_fps, base ? ratio(r.unpaced_link_fps, base->unpaced_link_fps) : "-",
        r.unpaced_peer_fps, r.cpu_per_million,
        base ? ratio(base->cpu_per_million, r.cpu_per_million) : "-",
        r.paced_rate > 0 ? fmt::format("{:.2f}%", r.paced_schedule_pct) : "-",
        r.paced_rate > 0 ? (r.paced_kept ? "yes" : "no") : "-");
    if (r.paced_rate > 0 && r.paced_peer_diff != 0) {
      out << fmt::format("|   peer counted {:+d} frames against the DUT's tx_packets\n",
                         r.paced_peer_diff);
    }
  }
}

}  // namespace hil::bench_tool
