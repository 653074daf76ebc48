// hilperf-bench: ours against stock iperf3 (every --iperf3, Debian's on PATH by default), side by
// side in one run on simulated benches of its own, printing ratios. Three tables (--only picks):
//   unshaped: against the first --iperf3 on an unshaped veth: TCP single stream Gbit/s and
//     CPU-seconds per GB; UDP 548-byte unpaced datagrams/s received with loss; paced -b 100M -t 5
//     counts at 548/1472/2972 against the ideal; pacing smoothness (p99 deviation of the gaps
//     between datagrams, seen on the receiving interface);
//   board: against every --iperf3 with the DUT side on a board's CPU (board_cpu.hpp: a cgroup
//     quota per --dut-cpu, board-like offloads);
//   frames: the RFC 2544 sender (frame_rate.hpp): 64-byte frames/s ours offers on schedule
//     against every --iperf3 at -l 18 -b 0;
//   paths: the frame paths below the socket layer (frame_paths.hpp) against the socket path and
//     every --iperf3 at -b 0, at 64, 128, 512 and 1518 bytes.
// Not a pass/fail test: it reports figures. Needs root (namespaces, cgroups, AF_PACKET).
// SIGINT/SIGTERM/SIGHUP stop it within 100 ms and take its benches down (interrupt.hpp).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <iostream>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "board_cpu.hpp"
#include "board_port.hpp"
#include "frame_paths.hpp"
#include "frame_rate.hpp"
#include "gap_probe.hpp"
#include "hil/bench/sim_bench.hpp"
#include "hil/measure/frames.hpp"
#include "hil/measure/pacing.hpp"
#include "hil/report/iperf3_json.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/install_paths.hpp"
#include "interrupt.hpp"

namespace {

using namespace std::chrono_literals;
using hil::bench_tool::contender;
using hil::report::iperf3_summary;

constexpr std::array<std::size_t, 3> paced_lengths{548, 1472, 2972};
constexpr std::uint64_t paced_rate = 100'000'000;

struct figures {
  double tcp_gbps = 0;
  double tcp_cpu_s_per_gb = 0;
  double udp_rx_pps = 0;
  double udp_loss_pct = 0;
  std::array<std::int64_t, 3> paced_count{};
  std::array<double, 3> paced_loss_pct{};
  double p50_dev_us = 0;
  double p99_dev_us = 0;
};

class runner {
 public:
  runner(const hil::bench::sim_layout& l, const contender& t) : l_(l), t_(t) {}

  // One client run with -J in the DUT namespace, parsed.
  iperf3_summary client(std::vector<std::string> args) const {
    std::vector<std::string> argv{"ip",
                                  "netns",
                                  "exec",
                                  l_.dut_netns,
                                  t_.client,
                                  "-c",
                                  hil::sys::without_prefix(l_.peer_ipv4),
                                  "-J"};
    argv.insert(argv.end(), t_.flags.begin(), t_.flags.end());
    argv.insert(argv.end(), args.begin(), args.end());
    hil::sys::child_process c(argv);
    if (!hil::bench_tool::wait_unless_interrupted(c, 180s))
      throw std::runtime_error(t_.name + " client did not finish");
    auto s = hil::report::parse_iperf3_json(c.output());
    if (!s.error.empty()) throw std::runtime_error(t_.name + ": " + s.error);
    return s;
  }

  // The tool's server in the peer namespace, listening.
  [[nodiscard]] std::unique_ptr<hil::sys::child_process> server() const {
    std::vector<std::string> argv{"ip", "netns", "exec", l_.peer_netns};
    argv.insert(argv.end(), t_.server.begin(), t_.server.end());
    auto s = std::make_unique<hil::sys::child_process>(argv);
    if (!s->wait_for_output(t_.ready, 10s)) {
      throw std::runtime_error(t_.name + " server did not start: " + s->output());
    }
    return s;
  }

  // 64-byte frames/s: ours paced on schedule, a stock iperf3 unpaced (frame_rate.hpp).
  [[nodiscard]] hil::bench_tool::frame_rate frames(bool ours, int seconds) const {
    const auto s = server();
    const auto run = [this](const std::vector<std::string>& args) { return client(args); };
    return ours ? hil::bench_tool::scheduled_frame_rate(run, seconds)
                : hil::bench_tool::unpaced_frame_rate(run, seconds);
  }

  // Unpaced datagrams making frame_bytes frames (-l payload -b 0): what reached the link.
  [[nodiscard]] hil::bench_tool::path_figures unpaced_frames(std::uint32_t frame_bytes,
                                                             int seconds) const {
    const auto s = server();
    hil::bench_tool::peer_link peer(l_);
    const auto payload = hil::measure::udp_payload_for_frame(frame_bytes, false).value_or(18);
    const std::uint64_t rx0 = peer.rx_packets();
    const auto r = client({"-u", "-l", std::to_string(payload), "-b", "0", "-t",
                           std::to_string(seconds), "-w", "8M"});
    const std::uint64_t rx1 = peer.rx_packets();
    hil::bench_tool::path_figures f;
    f.name = t_.name + " -u -b 0";
    f.unpaced_link_fps = static_cast<double>(r.packets) / r.duration_s;
    f.unpaced_peer_fps = static_cast<double>(rx1 - rx0) / r.duration_s;
    if (r.packets > 0) {
      f.cpu_per_million =
          r.host_cpu_total / 100.0 * r.duration_s / (static_cast<double>(r.packets) / 1e6);
    }
    return f;
  }

  figures measure(int seconds) const {
    const auto s = server();
    figures f;
    const std::string t = std::to_string(seconds);
    const auto tcp = client({"-t", t});
    f.tcp_gbps = tcp.received_bps / 1e9;
    const double cpu_s = (tcp.host_cpu_total + tcp.remote_cpu_total) / 100.0 * tcp.duration_s;
    f.tcp_cpu_s_per_gb = cpu_s / (static_cast<double>(tcp.received_bytes) / 1e9);
    const auto udp = client({"-u", "-b", "0", "-l", "548", "-t", t});
    f.udp_rx_pps = static_cast<double>(udp.packets - udp.lost_packets) / udp.duration_s;
    f.udp_loss_pct = udp.lost_percent;
    for (std::size_t i = 0; i < paced_lengths.size(); ++i) {
      const std::size_t len = paced_lengths[i];
      std::optional<hil::bench_tool::gap_probe> probe;
      if (len == 1472) probe.emplace(l_.peer_netns, l_.peer_interface, 5201, len);
      const auto paced = client({"-u", "-b", "100M", "-l", std::to_string(len), "-t", "5"});
      f.paced_count[i] = paced.packets;
      f.paced_loss_pct[i] = paced.lost_percent;
      if (probe) {
        const auto gaps = probe->stop();
        const auto ideal = std::chrono::nanoseconds(len * 8 * 1'000'000'000ULL / paced_rate);
        f.p50_dev_us = hil::bench_tool::deviation_percentile_us(gaps, ideal, 50);
        f.p99_dev_us = hil::bench_tool::deviation_percentile_us(gaps, ideal, 99);
      }
    }
    return f;
  }

 private:
  const hil::bench::sim_layout& l_;
  const contender& t_;
};

void print_frames(const std::vector<std::pair<std::string, hil::bench_tool::frame_rate>>& rows) {
  constexpr double media_max = 1e9 / ((64 + 20) * 8.0);
  double best_stock = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    best_stock = std::max(best_stock, rows[i].second.sent_per_s);
  }
  std::cout << fmt::format(
      "\n64-byte frames (18-byte UDP payloads): ours paced, kept to 0.1 %; "
      "iperf3 at -l 18 -b 0\n| {:<34} | {:>12} | {:>12} | {:>12} | {:>9} | "
      "{:>12} |\n",
      "sender", "offered/s", "sent/s", "received/s", "vs best", "of 1GbE max");
  for (const auto& [name, r] : rows) {
    std::cout << fmt::format(
        "| {:<34} | {:>12} | {:>12.0f} | {:>12.0f} | {:>9} | {:>11.1f}% |\n", name,
        r.offered_per_s > 0 ? fmt::format("{:.0f}", r.offered_per_s) : "unpaced", r.sent_per_s,
        r.received_per_s, best_stock > 0 ? fmt::format("{:.2f}x", r.sent_per_s / best_stock) : "-",
        100 * r.sent_per_s / media_max);
  }
}

void print(const std::string& stock_name, const figures& stock, const figures& ours) {
  // ratio > 1 means hilperf is better; a loss row has no meaningful ratio.
  enum class better { higher, lower, none };
  const auto row = [](const std::string& what, double a, double b, const std::string& target,
                      better sense = better::higher) {
    const bool defined = sense != better::none && a > 0 && b > 0;
    const double ratio = sense == better::lower ? a / b : b / a;
    std::cout << fmt::format("| {:<44} | {:>12.4g} | {:>12.4g} | {:>9} | {:<22} |\n", what, a, b,
                             defined ? fmt::format("{:.2f}x", ratio) : "-", target);
  };
  std::cout << fmt::format("| {:<44} | {:>12} | {:>12} | {:>8} | {:<22} |\n", "metric", stock_name,
                           "hilperf", "ratio", "target");
  std::cout << "|" << std::string(46, '-') << "|" << std::string(14, '-') << "|"
            << std::string(14, '-') << "|" << std::string(10, '-') << "|" << std::string(24, '-')
            << "|\n";
  row("TCP single stream, Gbit/s", stock.tcp_gbps, ours.tcp_gbps, ">= 0.95x");
  row("TCP CPU-seconds per GB (both ends)", stock.tcp_cpu_s_per_gb, ours.tcp_cpu_s_per_gb,
      "lower is better", better::lower);
  row("UDP 548 B unpaced, datagrams/s received", stock.udp_rx_pps, ours.udp_rx_pps, ">= 1.5x");
  row("UDP 548 B unpaced, loss %", stock.udp_loss_pct, ours.udp_loss_pct, "<= 0.1 %", better::none);
  for (std::size_t i = 0; i < paced_lengths.size(); ++i) {
    const hil::measure::pacer p(paced_rate, paced_lengths[i], {});
    const auto ideal = static_cast<double>(p.ideal_count(5s));
    std::cout << fmt::format(
        "| paced {:>4} B count (ideal {:>6.0f}), % off     | {:>+11.3f}% | {:>+11.3f}% | {:>9} | "
        "{:<22} |\n",
        paced_lengths[i], ideal, (static_cast<double>(stock.paced_count[i]) / ideal - 1) * 100,
        (static_cast<double>(ours.paced_count[i]) / ideal - 1) * 100, "", "within +-0.2 %");
    row(fmt::format("paced {:>4} B loss %", paced_lengths[i]), stock.paced_loss_pct[i],
        ours.paced_loss_pct[i], "0", better::none);
  }
  row("pacing 1472 B: p50 |gap - ideal|, us", stock.p50_dev_us, ours.p50_dev_us, "lower is better",
      better::lower);
  row("pacing 1472 B: p99 |gap - ideal|, us", stock.p99_dev_us, ours.p99_dev_us, "smoother",
      better::lower);
}

// The frame paths and every stock iperf3, per size (frame_paths.hpp).
void paths_table(const hil::bench::sim_layout& l, const std::vector<contender>& stock,
                 int seconds) {
  for (const std::uint32_t size : {64U, 128U, 512U, 1518U}) {
    auto rows = hil::bench_tool::measure_frame_paths(l, size, seconds);
    for (const auto& t : stock) rows.push_back(runner(l, t).unpaced_frames(size, seconds));
    hil::bench_tool::print_frame_paths(std::cout, size, rows);
    std::cout << std::flush;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("hilperf-bench: hilperf against stock iperf3 on simulated benches of its own");
  int seconds = 5;
  std::vector<std::string> stock_specs{"iperf3"};
  std::vector<std::string> only;
  hil::bench_tool::board_cpu_options board;
  app.add_option("-t,--time", seconds, "seconds per TCP and unpaced UDP run (unshaped, frames)")
      ->capture_default_str();
  app.add_option("--iperf3", stock_specs,
                 "a stock iperf3 to compare with, 'PATH [FLAG ...]' (repeatable; the first gets "
                 "the unshaped table; the flags go to every client run: -Z, --gsro)")
      ->capture_default_str();
  app.add_option("--only", only, "run only these tables (repeatable)")
      ->check(CLI::IsMember({"unshaped", "board", "frames", "paths"}));
  app.add_option("--dut-cpu", board.quotas,
                 "board table: the DUT side's CPU quota, percent of one core (repeatable; 0 = "
                 "uncapped)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app.add_option("--board-time", board.seconds, "board table: seconds per run")
      ->check(CLI::Range(1, 60))
      ->capture_default_str();
  app.add_option("--runs", board.runs, "board table: runs per tool and figure (median printed)")
      ->check(CLI::Range(1, 15))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  const auto wanted = [&only](const std::string& table) {
    return only.empty() || std::find(only.begin(), only.end(), table) != only.end();
  };
  hil::bench_tool::catch_stop_signals();
  try {
    std::vector<contender> stock;
    for (const auto& spec : stock_specs) stock.push_back(hil::bench_tool::stock_iperf3(spec));
    // $HILPERF_PEER_BINARY / $HILPERF_BINARY, else next to this program once installed, else the
    // build tree's (hil/sys/install_paths.hpp).
    const auto peer =
        hil::sys::locate_installed("HILPERF_PEER_BINARY", "hilperf-peer", HILPERF_PEER_BINARY);
    const auto client = hil::sys::locate_installed("HILPERF_BINARY", "hilperf", HILPERF_BINARY);
    const contender ours{
        "hilperf", client.string(), {}, {peer.string(), "-s"}, "listening on port"};
    if (wanted("unshaped") || wanted("frames") || wanted("paths")) {
      // Unshaped: the engines, not the link, are measured.
      hil::bench::sim_layout l = hil::bench::private_layout("b", "eth0");
      l.peer_mtu = 9000;
      const hil::bench::bench_session bench(l);
      std::cout << "hilperf-bench: " << seconds << " s runs on " << l.dut_netns << " <-> "
                << l.peer_netns << " (veth, unshaped)\n"
                << std::flush;
      if (wanted("unshaped")) {
        const figures a = runner(l, stock.front()).measure(seconds);
        const figures b = runner(l, ours).measure(seconds);
        print(stock.front().name, a, b);
      }
      if (wanted("frames")) {
        std::vector<std::pair<std::string, hil::bench_tool::frame_rate>> rows;
        rows.emplace_back("hilperf (paced, schedule kept)", runner(l, ours).frames(true, 2));
        for (const auto& t : stock) {
          rows.emplace_back(t.name + " -b 0", runner(l, t).frames(false, seconds));
        }
        print_frames(rows);
      }
      if (wanted("paths")) paths_table(l, stock, seconds);
    }
    if (wanted("board")) {
      std::vector<contender> tools{ours};
      tools.insert(tools.end(), stock.begin(), stock.end());
      hil::bench_tool::compare_on_board_cpu(tools, board, std::cout);
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-bench: " << e.what() << '\n';
    return 1;
  }
}
