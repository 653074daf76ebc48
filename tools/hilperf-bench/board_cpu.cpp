#include "board_cpu.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "board_port.hpp"
#include "hil/bench/sim_bench.hpp"
#include "hil/frame/batch_pacer.hpp"
#include "hil/frame/path_chain.hpp"
#include "hil/measure/sample_stats.hpp"
#include "hil/report/iperf3_json.hpp"
#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/cpu_cgroup.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"
#include "interrupt.hpp"

namespace hil::bench_tool {

namespace {

using namespace std::chrono_literals;
using report::iperf3_summary;

constexpr int first_port = 5301;
constexpr int port_mbit = 1000;       // the port of the CPU-per-GB figures
constexpr int max_frame = 9000 + 18;  // the peer end's MTU on this bench, as a frame

// "iperf 3.12" from `binary --version`'s first line ("iperf 3.12 (cJSON 1.7.15)"), else the path.
std::string version_of(const std::string& binary) {
  sys::child_process v({binary, "--version"});
  if (!v.wait(10s)) return binary;
  const std::string out = v.output();
  const std::string first = out.substr(0, out.find('\n'));
  return first.empty() ? binary : first.substr(0, first.find(" ("));
}

enum class better { higher, lower };

// What one client run gave: its report, the CPU time the DUT side spent on it (all of it, and the
// part in user space), and the packets that crossed the link to the peer meanwhile.
struct run_result {
  iperf3_summary summary;
  std::chrono::nanoseconds cpu{};
  sys::cpu_cgroup::mode_split cpu_by_mode;
  std::uint64_t link_packets = 0;
};

// The share of the DUT side's CPU time a run spent in user space, the tool's own code; the rest is
// the kernel's work for what the tool asked of it, which a tool changes only by how it asks (GSO,
// batches, sendfile) (cpu_cgroup::used_by_mode).
double user_percent(const run_result& r) {
  const auto& m = r.cpu_by_mode;
  const double all = std::chrono::duration<double>(m.user + m.kernel).count();
  return all > 0 ? 100 * std::chrono::duration<double>(m.user).count() / all : 0;
}

// One row of the table: what the clients are asked and what is read off a run.
struct figure {
  std::string what;
  std::vector<std::string> args;  // after -c host -p port -J and the tool's flags
  bool on_1g_port = false;        // through the 1 Gbit/s port (else unshaped)
  better sense = better::higher;
  std::string target;  // the issue's, for hilperf against the best of the others
  std::function<double(const run_result&)> value;  // the figure one run gives
  // A UDP row: the same runs' datagrams/s the peer's program counted and loss % on rows below.
  bool with_loss = false;
  // A CPU-per-GB row: the same runs' goodput on a row of its own below (a DUT that cannot fill
  // the port spends its whole quota on fewer bytes, and the figure says so only beside it).
  bool with_rate = false;
};

double received_per_s(const run_result& r) {
  const iperf3_summary& s = r.summary;
  return static_cast<double>(s.packets - s.lost_packets) / s.duration_s;
}

// What the DUT put on the link, whether or not the peer's program kept up with it.
double onto_the_link_per_s(const run_result& r) {
  return static_cast<double>(r.link_packets) / r.summary.duration_s;
}

double cpu_s_per_gb(const run_result& r) {
  return std::chrono::duration<double>(r.cpu).count() /
         (static_cast<double>(r.summary.received_bytes) / 1e9);
}

std::vector<figure> figures(int seconds) {
  const std::string t = std::to_string(seconds);
  const auto gbps = [](const run_result& r) { return r.summary.received_bps / 1e9; };
  const std::string tcp_target = ">= 1.0x, aim 1.3x";
  const std::vector<std::string> udp{"-u", "-b", "0", "-t", t, "-l"};
  const auto with = [](std::vector<std::string> a, const std::string& last) {
    a.push_back(last);
    return a;
  };
  return {
      {"TCP, the DUT sends, Gbit/s", {"-t", t}, false, better::higher, tcp_target, gbps, false},
      {"TCP, the DUT receives (-R), Gbit/s",
       {"-R", "-t", t},
       false,
       better::higher,
       tcp_target,
       gbps,
       false},
      {"UDP 1472 B, datagrams/s onto the link", with(udp, "1472"), false, better::higher, ">= 1.5x",
       onto_the_link_per_s, true},
      {"UDP 18 B (64 B frames), datagrams/s onto the link", with(udp, "18"), false, better::higher,
       "reported", onto_the_link_per_s, true},
      {"CPU-s per GB at 1 Gbit/s, the DUT sends",
       {"-t", t},
       true,
       better::lower,
       "<= 0.7x",
       cpu_s_per_gb,
       false,
       true},
      {"CPU-s per GB at 1 Gbit/s, the DUT receives",
       {"-R", "-t", t},
       true,
       better::lower,
       "<= 0.7x",
       cpu_s_per_gb,
       false,
       true},
  };
}

// The CPUs this process may use, split between the two ends: the first for the DUT side, the
// rest for the peer, so neither end's work takes the other's CPU as on two hosts. Empty lists
// (both ends anywhere) when there is only one.
struct cpu_split {
  std::string dut;
  std::string peer;
};

cpu_split split_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return {};
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  if (cpus.size() < 2) return {};
  cpu_split split{std::to_string(cpus[0]), {}};
  for (std::size_t i = 1; i < cpus.size(); ++i) {
    split.peer += (i > 1 ? "," : "") + std::to_string(cpus[i]);
  }
  return split;
}

class board_run {
 public:
  // The DUT's receive work (threads.dut, make_ports_board_like) runs inside the DUT's cgroup, the
  // peer's inside the peer's (uncapped, only kept on the peer's CPUs).
  board_run(const bench::sim_layout& l, const std::vector<contender>& tools, int quota,
            const port_threads& threads, const cpu_split& cpus)
      : l_(l),
        tools_(tools),
        cgroup_("bench", quota, cpus.dut),
        peer_cgroup_("bench-peer", 0, cpus.peer),
        link_(l) {
    for (const pid_t t : threads.dut) cgroup_.adopt(t);
    for (const pid_t t : threads.peer) peer_cgroup_.adopt(t);
    for (std::size_t i = 0; i < tools_.size(); ++i) {
      std::vector<std::string> argv{"ip", "netns", "exec", l_.peer_netns};
      argv.insert(argv.end(), tools_[i].server.begin(), tools_[i].server.end());
      argv.insert(argv.end(), {"-p", std::to_string(first_port + static_cast<int>(i))});
      servers_.push_back(std::make_unique<sys::child_process>(peer_cgroup_.command(argv)));
      if (!servers_.back()->wait_for_output(tools_[i].ready, 10s)) {
        throw std::runtime_error(tools_[i].name +
                                 " server did not start: " + servers_.back()->output());
      }
    }
  }

  // One unpaced run of hilperf's frame path (AF_XDP, else the AF_PACKET ring, else a UDP socket:
  // hil/frame) with frames of frame_bytes for seconds, sent by a thread of this process that
  // joins the DUT's cgroup (its quota and its CPU count) and the DUT's namespace: the datagrams/s
  // the peer end's interface received, and the path taken (*path).
  double frame_path_onto_link(std::uint32_t frame_bytes, int seconds, std::string* path) {
    double fps = 0;
    std::exception_ptr failed;
    std::thread sender([&] {
      try {
        cgroup_.adopt(static_cast<pid_t>(::gettid()));
        sys::with_socket_namespace(l_.dut_netns, [&] {
          link::link_control link;
          const frame::frame_template t(
              frame::flow_frame(link, l_.dut_interface, sys::without_prefix(l_.dut_ipv4),
                                sys::without_prefix(l_.peer_ipv4), 40000, 45000, frame_bytes));
          frame::chain_request request;
          request.ifname = l_.dut_interface;
          const auto opened = frame::open_frame_path(request, t);
          *path = opened.summary();
          frame::pace_plan plan;
          plan.duration = std::chrono::seconds(seconds);
          plan.batch = 64;
          const std::uint64_t before = link_.rx_packets();
          const auto r = frame::run_paced(*opened.sender, link, plan);
          fps = static_cast<double>(link_.rx_packets() - before) / r.seconds;
        });
      } catch (...) {
        failed = std::current_exception();
      }
    });
    sender.join();
    if (failed) std::rethrow_exception(failed);
    return fps;
  }

  // One client run of tool i inside the DUT's cgroup.
  run_result client(std::size_t i, const std::vector<std::string>& args) {
    const contender& t = tools_[i];
    std::vector<std::string> argv{"ip",
                                  "netns",
                                  "exec",
                                  l_.dut_netns,
                                  t.client,
                                  "-c",
                                  sys::without_prefix(l_.peer_ipv4),
                                  "-p",
                                  std::to_string(first_port + static_cast<int>(i)),
                                  "-J"};
    argv.insert(argv.end(), t.flags.begin(), t.flags.end());
    argv.insert(argv.end(), args.begin(), args.end());
    const auto before = cgroup_.used();
    const auto modes_before = cgroup_.used_by_mode();
    const std::uint64_t packets_before = link_.rx_packets();
    sys::child_process c(cgroup_.command(argv));
    if (!wait_unless_interrupted(c, 180s))
      throw std::runtime_error(t.name + " client did not finish");
    run_result r;
    r.cpu = cgroup_.used() - before;
    r.cpu_by_mode = cgroup_.used_by_mode() - modes_before;
    r.link_packets = link_.rx_packets() - packets_before;
    r.summary = report::parse_iperf3_json(c.output());
    if (!r.summary.error.empty()) throw std::runtime_error(t.name + ": " + r.summary.error);
    return r;
  }

 private:
  const bench::sim_layout& l_;
  const std::vector<contender>& tools_;
  sys::cpu_cgroup cgroup_;
  sys::cpu_cgroup peer_cgroup_;
  peer_link link_;
  std::vector<std::unique_ptr<sys::child_process>> servers_;
};

void print_header(const std::vector<contender>& tools, std::ostream& out) {
  std::string head = fmt::format("| {:<50} |", "figure");
  std::string rule = "|" + std::string(52, '-') + "|";
  for (const auto& t : tools) {
    head += fmt::format(" {:>22} |", t.name);
    rule += std::string(24, '-') + "|";
  }
  head += fmt::format(" {:>15} | {:<18} |", "ours/best other", "target");
  rule += std::string(17, '-') + "|" + std::string(20, '-') + "|";
  out << head << '\n' << rule << '\n';
}

void print_row(const figure& f, const std::vector<double>& medians, std::ostream& out) {
  std::string row = fmt::format("| {:<50} |", f.what);
  for (const double v : medians) row += fmt::format(" {:>22.4g} |", v);
  std::optional<double> best;
  for (std::size_t i = 1; i < medians.size(); ++i) {
    if (!best || (f.sense == better::higher ? medians[i] > *best : medians[i] < *best)) {
      best = medians[i];
    }
  }
  const bool ratio = !f.target.empty() && best && *best > 0;
  row += fmt::format(" {:>15} | {:<18} |", ratio ? fmt::format("{:.2f}x", medians[0] / *best) : "-",
                     f.target);
  out << row << '\n' << std::flush;
}

}  // namespace

contender stock_iperf3(const std::string& spec) {
  std::istringstream words(spec);
  std::vector<std::string> parts;
  for (std::string w; words >> w;) parts.push_back(w);
  if (parts.empty()) throw std::invalid_argument("--iperf3 names no binary");
  contender c{version_of(parts[0]),
              parts[0],
              {parts.begin() + 1, parts.end()},
              {parts[0], "-s", "--forceflush"},
              "Server listening"};
  for (const auto& f : c.flags) c.name += " " + f;
  return c;
}

void compare_on_board_cpu(const std::vector<contender>& tools, const board_cpu_options& o,
                          std::ostream& out) {
  bench::sim_layout l = bench::private_layout("c", "eth0");
  l.peer_mtu = 9000;
  const bench::bench_session bench(l);
  const port_threads threads = make_ports_board_like(l);
  const cpu_split cpus = split_cpus();
  const auto rows = figures(o.seconds);
  for (const int quota : o.quotas) {
    out << fmt::format(
        "\nThe DUT side capped at {} (cgroup cpu quota), {}, ports without segmentation "
        "offload, each end's receive work on its own side; "
        "median of {} runs of {} s, the tools taking turns\n",
        quota == 0 ? std::string("nothing") : fmt::format("{} % of one core", quota),
        cpus.dut.empty() ? std::string("both ends sharing this machine's only CPU")
                         : fmt::format("on CPU {} and the peer on CPU {}", cpus.dut, cpus.peer),
        o.runs, o.seconds);
    print_header(tools, out);
    board_run run(l, tools, quota, threads, cpus);
    for (const auto& f : rows) {
      std::optional<bench::ethernet_port> port;
      if (f.on_1g_port) port.emplace(l, port_mbit, max_frame);
      std::vector<std::vector<double>> values(tools.size());
      std::vector<std::vector<double>> counted(tools.size());
      std::vector<std::vector<double>> losses(tools.size());
      std::vector<std::vector<double>> rates(tools.size());
      std::vector<std::vector<double>> user(tools.size());
      for (int r = 0; r < o.runs; ++r) {
        for (std::size_t i = 0; i < tools.size(); ++i) {
          const run_result result = run.client(i, f.args);
          values[i].push_back(f.value(result));
          counted[i].push_back(received_per_s(result));
          losses[i].push_back(result.summary.lost_percent);
          rates[i].push_back(result.summary.received_bps / 1e9);
          user[i].push_back(user_percent(result));
        }
      }
      const auto medians = [](const std::vector<std::vector<double>>& v) {
        std::vector<double> m;
        for (const auto& x : v) m.push_back(measure::median(x));
        return m;
      };
      print_row(f, medians(values), out);
      if (f.with_loss) {
        const figure got{"  the same runs' datagrams/s its server counted",
                         {},
                         false,
                         better::higher,
                         "",
                         {},
                         false};
        print_row(got, medians(counted), out);
        const figure loss{"  the same runs' loss %", {}, false, better::lower, "", {}, false};
        print_row(loss, medians(losses), out);
      }
      if (f.with_rate) {
        const figure rate{
            "  the same runs' goodput, Gbit/s", {}, false, better::higher, "", {}, false};
        print_row(rate, medians(rates), out);
      }
      const figure in_user{
          "  the same runs' DUT CPU in user space, %", {}, false, better::lower, "", {}, false};
      print_row(in_user, medians(user), out);
      if (f.what.starts_with("UDP 1472 B")) {
        // hilperf's frame path in the same cgroup, against the same runs of every other tool.
        std::vector<double> on_path;
        std::string path;
        for (int r = 0; r < o.runs; ++r) {
          on_path.push_back(run.frame_path_onto_link(1518, o.seconds, &path));
        }
        auto row = medians(values);
        row[0] = measure::median(on_path);
        const figure frame_row{"UDP 1472 B, hilperf on its frame path, onto the link",
                               {},
                               false,
                               better::higher,
                               ">= 1.5x",
                               {},
                               false};
        print_row(frame_row, row, out);
        out << "|   frame path: " << path << '\n';
      }
    }
  }
}

}  // namespace hil::bench_tool
