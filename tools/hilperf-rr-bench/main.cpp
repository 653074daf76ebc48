// hilperf-rr-bench: our request/response engine against sockperf and netperf, side by side in one
// run on an unshaped simulated bench of its own (issue "Request/response", Benchmark):
//   TCP_RR, UDP_RR, TCP_CRR at 1,1 against netperf 2.7.1 (when found), TCP_RR and UDP_RR at 14,14
//   against sockperf ping-pong (14 B is its smallest message); transactions/s (median, min–max
//   over the repetitions), ours/best reference, round-trip p50/p90/p99.
// Every tool is pinned the same way (scheduling dominates these figures on small VMs), and the
// tools alternate within each repetition so drift on the host hits all of them alike.
// Not a pass/fail test: it reports figures (exit 1 only when something could not run at all).
// Needs root (namespaces).
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <iostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "hil/bench/sim_bench.hpp"
#include "hil/sys/install_paths.hpp"
#include "rr_table.hpp"
#include "rr_tools.hpp"

namespace {

using namespace hil::rr_bench_tool;

constexpr double target_ratio = 0.95;  // within 5 % of the best reference, or ahead

std::atomic<bool> interrupted{false};

extern "C" void on_signal(int /*sig*/) { interrupted = true; }

struct options {
  int seconds = 5;
  int repetitions = 3;
  std::string pinning = "same-cpu";
  std::string netperf_dir = "/opt/netperf-local/bin";
};

// Every problem with o, one message each (empty when it can run).
std::vector<std::string> validate(const options& o) {
  std::vector<std::string> problems;
  if (::geteuid() != 0) {
    problems.emplace_back("needs root: it creates network namespaces (run it with sudo)");
  }
  if (pinning_from_name(o.pinning) == pinning::split) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof(set), &set) != 0 || !CPU_ISSET(0, &set) ||
        !CPU_ISSET(1, &set)) {
      problems.emplace_back(
          "--pinning split needs CPUs 0 and 1, and this process may not use both");
    }
  }
  return problems;
}

std::string pinning_description(pinning p) {
  switch (p) {
    case pinning::same_cpu:
      return "same-cpu: server and client both on CPU 0 (taskset -c 0)";
    case pinning::split:
      return "split: server on CPU 0, client on CPU 1 (taskset -c 0 / taskset -c 1)";
    case pinning::none:
      return "none: wherever the scheduler puts them (expect bimodal, noisy figures)";
  }
  return "?";
}

// The rows this run can compare, in table order.
std::vector<row_result> plan(const tool_paths& paths) {
  const bool netperf = !paths.netperf.empty();
  const bool sockperf = !paths.sockperf.empty();
  std::vector<row_result> rows;
  const auto add = [&rows](std::string workload, std::uint32_t size, tool_kind ref) {
    row_result r;
    r.c = {std::move(workload), size};
    r.references = {ref};
    rows.push_back(std::move(r));
  };
  if (netperf) add("TCP_RR", 1, tool_kind::netperf);
  if (sockperf) add("TCP_RR", 14, tool_kind::sockperf);
  if (netperf) add("UDP_RR", 1, tool_kind::netperf);
  if (sockperf) add("UDP_RR", 14, tool_kind::sockperf);
  if (netperf) add("TCP_CRR", 1, tool_kind::netperf);
  return rows;
}

void print_header(const options& o, pinning pin, const tool_paths& paths,
                  const hil::bench::sim_layout& l) {
  std::cout << fmt::format(
      "hilperf-rr-bench: request/response, hilperf against sockperf and netperf on {} <-> {} "
      "(veth, unshaped)\n",
      l.dut_netns, l.peer_netns);
  std::cout << fmt::format(
      "  runs:     {} repetitions x {} s per tool and workload, tools "
      "alternating within each repetition\n",
      o.repetitions, o.seconds);
  std::cout << fmt::format("  pinning:  {}\n", pinning_description(pin));
  std::cout << fmt::format("  hilperf:  {} ({}), server {}\n", paths.hilperf,
                           tool_version(paths.hilperf, "--version"), paths.hilperf_peer);
  if (paths.sockperf.empty()) {
    std::cout << "  sockperf: not found in PATH; its rows are skipped (apt-get install sockperf, "
                 "or ci/install-deps bench)\n";
  } else {
    std::cout << fmt::format("  sockperf: {} ({})\n", paths.sockperf,
                             tool_version(paths.sockperf, "--version"));
  }
  if (paths.netperf.empty()) {
    std::cout << fmt::format(
        "  netperf:  not found in {} or PATH; its rows are skipped. Build it locally (not in "
        "Debian main, never committed): fetch github:HewlettPackard/netperf, ./autogen.sh && "
        "./configure --prefix=/opt/netperf-local && make && make install (see "
        "docs/benchmarks.md)\n",
        o.netperf_dir);
  } else {
    std::cout << fmt::format("  netperf:  {} ({}), server {}\n", paths.netperf,
                             tool_version(paths.netperf, "-V"), paths.netserver);
  }
  std::cout << std::flush;
}

// One line per run, so the log keeps every figure the medians come from.
void print_run(int rep, const row_result& row, tool_kind tool, const run_outcome& out,
               const std::string& command) {
  std::cout << fmt::format("  rep {} {:<12} {:<9} ", rep, row_label(row.c), tool_name(tool));
  if (out.sample) {
    const auto& s = *out.sample;
    std::cout << fmt::format("{:>9.0f} tx/s  p50 {:.1f}  p90 {:.1f}  p99 {:.1f} us{}\n",
                             s.transactions_per_second, s.p50_us, s.p90_us, s.p99_us,
                             s.lost > 0 ? fmt::format("  lost {}", s.lost) : "");
  } else {
    std::cout << fmt::format("FAILED: {}\n    command: {}\n", out.error, command);
  }
  std::cout << std::flush;
}

// Runs every row's tools once per repetition, ours first in odd repetitions and last in even ones.
void measure(rr_runner& runner, std::vector<row_result>& rows, int repetitions) {
  for (int rep = 1; rep <= repetitions; ++rep) {
    for (auto& row : rows) {
      std::vector<tool_kind> order{tool_kind::ours};
      order.insert(order.end(), row.references.begin(), row.references.end());
      if (rep % 2 == 0) std::reverse(order.begin(), order.end());
      for (const auto tool : order) {
        if (interrupted) throw std::runtime_error("interrupted");
        const auto out = runner.run(tool, row.c);
        print_run(rep, row, tool, out, runner.last_client_command());
        if (out.sample) {
          row.samples[tool].push_back(*out.sample);
        } else {
          row.errors[tool].push_back(out.error);
        }
      }
    }
  }
}

// Names each tool that gave no figures at all in some row; empty when everything ran.
std::vector<std::string> never_ran(const std::vector<row_result>& rows) {
  std::vector<std::string> missing;
  for (const auto& row : rows) {
    std::vector<tool_kind> tools{tool_kind::ours};
    tools.insert(tools.end(), row.references.begin(), row.references.end());
    for (const auto tool : tools) {
      if (!row.samples.contains(tool)) {
        const auto it = row.errors.find(tool);
        missing.push_back(fmt::format("{} {}: {}", row_label(row.c), tool_name(tool),
                                      it == row.errors.end() || it->second.empty()
                                          ? std::string("no run")
                                          : it->second.back()));
      }
    }
  }
  return missing;
}

// Unshaped: the engines, not the link, are measured.
hil::bench::sim_layout bench_layout() { return hil::bench::private_layout("rr", "eth0"); }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(
      "hilperf-rr-bench: hilperf's request/response workloads against sockperf and netperf on an "
      "unshaped simulated bench (needs root)");
  options o;
  app.add_option("-t,--time", o.seconds, "seconds per client run")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  app.add_option("-n,--repetitions", o.repetitions, "runs of every tool per workload")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  app.add_option("--pinning", o.pinning,
                 "same-cpu: server and client on CPU 0; split: server on CPU 0, client on CPU 1; "
                 "none: unpinned")
      ->check(CLI::IsMember({"same-cpu", "split", "none"}))
      ->capture_default_str();
  app.add_option("--netperf-dir", o.netperf_dir,
                 "directory with netperf and netserver (else PATH; see docs/benchmarks.md)")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (const auto problems = validate(o); !problems.empty()) {
    for (const auto& p : problems) std::cerr << "hilperf-rr-bench: " << p << '\n';
    return 2;
  }
  const pinning pin = *pinning_from_name(o.pinning);
  // $HILPERF_BINARY / $HILPERF_PEER_BINARY, else next to this program once installed, else the
  // build tree's (hil/sys/install_paths.hpp).
  tool_paths paths{
      hil::sys::locate_installed("HILPERF_BINARY", "hilperf", HILPERF_BINARY).string(),
      hil::sys::locate_installed("HILPERF_PEER_BINARY", "hilperf-peer", HILPERF_PEER_BINARY)
          .string(),
      find_in_path("sockperf"),
      {},
      {}};
  locate_netperf(o.netperf_dir, paths);
  auto rows = plan(paths);
  const auto layout = bench_layout();
  print_header(o, pin, paths, layout);
  if (rows.empty()) {
    std::cerr << "hilperf-rr-bench: neither sockperf nor netperf was found: nothing to compare\n";
    return 1;
  }
  // Finish the current run, then clean up: the servers and clients are in process groups of their
  // own, so a terminal's ^C does not reach them, and the bench must be taken down.
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  try {
    const hil::bench::bench_session bench(layout);
    rr_runner runner(layout, paths, pin, o.seconds);
    measure(runner, rows, o.repetitions);
    std::cout << '\n'
              << markdown_table(rows, o.repetitions, target_ratio) << '\n'
              << target_line(rows, target_ratio);
    const auto missing = never_ran(rows);
    for (const auto& m : missing) std::cerr << "hilperf-rr-bench: could not run " << m << '\n';
    return missing.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-rr-bench: " << e.what() << '\n';
    return 1;
  }
}
