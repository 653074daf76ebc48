// The contenders of the request/response benchmark and how one run of each is made on the bench:
// its server started in the peer namespace, its client in the DUT namespace, both pinned the same
// way, the client's output parsed (rr_parse.hpp), the server stopped.
//
//   ours      hilperf-peer -s -p P          hilperf -c A -p P --workload W -t T -r S,S -J
//   sockperf  sockperf server -i A -p P     sockperf ping-pong -i A -p P [--tcp] -t T -m S
//             [--tcp]                         --full-rtt                     (TCP_RR/UDP_RR, S >=
//             14)
//   netperf   netserver -D -p P             netperf -H A -p P -t W -l T -P 0 -- -r S,S -o …
//
// Every run gets a fresh port, so no server is ever restarted on a port with connections in
// TIME_WAIT. Benchmark-only (tools/hilperf-rr-bench).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hil/bench/sim_bench.hpp"
#include "rr_parse.hpp"

namespace hil::rr_bench_tool {

enum class tool_kind { ours, sockperf, netperf };

// "hilperf", "sockperf", "netperf".
[[nodiscard]] std::string_view tool_name(tool_kind t);

// Where client and server run: both on CPU 0, server on 0 and client on 1, or where the scheduler
// puts them.
enum class pinning { same_cpu, split, none };

// "same-cpu", "split", "none" and back; nullopt for other names.
[[nodiscard]] std::string_view pinning_name(pinning p);
[[nodiscard]] std::optional<pinning> pinning_from_name(std::string_view name);

// One row of the comparison: a netperf workload name and the request = response size in bytes.
struct rr_case {
  std::string workload;  // TCP_RR, UDP_RR or TCP_CRR
  std::uint32_t size = 1;
};

// The binaries, absolute or found in PATH; an empty path means the tool is not available.
struct tool_paths {
  std::string hilperf;
  std::string hilperf_peer;
  std::string sockperf;
  std::string netperf;
  std::string netserver;
};

// An executable file named name in PATH, or empty.
[[nodiscard]] std::string find_in_path(const std::string& name);

// netperf and netserver from dir when both are there, else from PATH; both empty when either is
// missing.
void locate_netperf(const std::string& dir, tool_paths& paths);

// The first line of `binary version_flag` that names a version, or "unknown (…)".
[[nodiscard]] std::string tool_version(const std::string& binary, const std::string& version_flag);

// What one run produced: figures, or why there are none.
struct run_outcome {
  std::optional<rr_sample> sample;
  std::string error;
};

class rr_runner {
 public:
  // Runs on bench l (already up) for seconds per client run.
  rr_runner(hil::bench::sim_layout l, tool_paths paths, pinning pin, int seconds);

  // One run of tool on c: server up, client run and parsed, server down. Never throws for a failed
  // run (the outcome says why); throws when a process cannot be started at all.
  run_outcome run(tool_kind tool, const rr_case& c);

  // The client command of the most recent run, as a user would type it.
  [[nodiscard]] const std::string& last_client_command() const noexcept { return last_command_; }

 private:
  // argv run in namespace ns, pinned as pin_ says for that side.
  std::vector<std::string> in_netns(const std::string& ns, bool server,
                                    std::vector<std::string> argv) const;
  std::vector<std::string> server_argv(tool_kind tool, const rr_case& c, std::uint16_t port) const;
  std::string ready_text(tool_kind tool) const;
  std::vector<std::string> client_argv(tool_kind tool, const rr_case& c, std::uint16_t port) const;

  hil::bench::sim_layout layout_;
  tool_paths paths_;
  pinning pin_;
  int seconds_;
  std::string peer_address_;         // the peer's IPv4 address without prefix
  std::uint16_t next_port_ = 20000;  // a fresh port for every run
  std::string last_command_;
};

}  // namespace hil::rr_bench_tool
