#include "rr_tools.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "hil/sys/child_process.hpp"
#include "hil/sys/cidr.hpp"
#include "hil/sys/process.hpp"

namespace hil::rr_bench_tool {
namespace {

using namespace std::chrono_literals;

constexpr auto server_start_timeout = 10s;
// A client gets its run time plus this much for connecting, warm-up and printing.
constexpr auto client_slack = 30s;
// hilperf exits with this when the peer does not speak the request/response extension.
constexpr int hilperf_no_extension = 3;

constexpr std::string_view netperf_selectors =
    "THROUGHPUT,MEAN_LATENCY,P50_LATENCY,P90_LATENCY,P99_LATENCY,MAX_LATENCY";

bool executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

bool is_tcp(const rr_case& c) { return c.workload.starts_with("TCP"); }

// The last few non-empty lines of a client's output, for an error message.
std::string brief(const std::string& output) {
  const std::string text = strip_ansi(output);
  std::string out;
  std::size_t end = text.size();
  for (int lines = 0; lines < 3 && end > 0;) {
    const std::size_t start = text.rfind('\n', end - 1);
    const std::size_t from = start == std::string::npos ? 0 : start + 1;
    const std::string line = text.substr(from, end - from);
    if (!line.empty()) {
      out = out.empty() ? line : line + " | " + out;
      ++lines;
    }
    if (start == std::string::npos) break;
    end = start;
  }
  return out.empty() ? "(no output)" : out;
}

}  // namespace

std::string_view tool_name(tool_kind t) {
  switch (t) {
    case tool_kind::ours:
      return "hilperf";
    case tool_kind::sockperf:
      return "sockperf";
    case tool_kind::netperf:
      return "netperf";
  }
  return "?";
}

std::string_view pinning_name(pinning p) {
  switch (p) {
    case pinning::same_cpu:
      return "same-cpu";
    case pinning::split:
      return "split";
    case pinning::none:
      return "none";
  }
  return "?";
}

std::optional<pinning> pinning_from_name(std::string_view name) {
  for (const auto p : {pinning::same_cpu, pinning::split, pinning::none}) {
    if (pinning_name(p) == name) return p;
  }
  return std::nullopt;
}

std::string find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (executable(candidate)) return candidate;
  }
  return {};
}

void locate_netperf(const std::string& dir, tool_paths& paths) {
  if (!dir.empty() && executable(dir + "/netperf") && executable(dir + "/netserver")) {
    paths.netperf = dir + "/netperf";
    paths.netserver = dir + "/netserver";
    return;
  }
  paths.netperf = find_in_path("netperf");
  paths.netserver = find_in_path("netserver");
  if (paths.netperf.empty() || paths.netserver.empty()) paths.netperf = paths.netserver = "";
}

std::string tool_version(const std::string& binary, const std::string& version_flag) {
  try {
    const auto r = hil::sys::run({binary, version_flag}, 10s);
    const std::string line = version_line(r.output);
    return line.empty() ? fmt::format("unknown ({} {} printed no version)", binary, version_flag)
                        : line;
  } catch (const std::exception& e) {
    return fmt::format("unknown ({})", e.what());
  }
}

rr_runner::rr_runner(hil::bench::sim_layout l, tool_paths paths, pinning pin, int seconds)
    : layout_(std::move(l)),
      paths_(std::move(paths)),
      pin_(pin),
      seconds_(seconds),
      peer_address_(sys::without_prefix(layout_.peer_ipv4)) {}

std::vector<std::string> rr_runner::in_netns(const std::string& ns, bool server,
                                             std::vector<std::string> argv) const {
  // `ip netns exec` and taskset both exec, so the tool itself ends up pinned (and its threads and
  // children inherit the affinity).
  std::vector<std::string> full{"ip", "netns", "exec", ns};
  if (pin_ == pinning::same_cpu) full.insert(full.end(), {"taskset", "-c", "0"});
  if (pin_ == pinning::split) full.insert(full.end(), {"taskset", "-c", server ? "0" : "1"});
  full.insert(full.end(), argv.begin(), argv.end());
  return full;
}

std::vector<std::string> rr_runner::server_argv(tool_kind tool, const rr_case& c,
                                                std::uint16_t port) const {
  const std::string p = std::to_string(port);
  switch (tool) {
    case tool_kind::ours:
      return {paths_.hilperf_peer, "-s", "-p", p};
    case tool_kind::sockperf: {
      std::vector<std::string> argv{paths_.sockperf, "server", "-i", peer_address_, "-p", p};
      if (is_tcp(c)) argv.emplace_back("--tcp");
      return argv;
    }
    case tool_kind::netperf:
      return {paths_.netserver, "-D", "-p", p, "-L", peer_address_};
  }
  throw std::invalid_argument("unknown tool");
}

std::string rr_runner::ready_text(tool_kind tool) const {
  switch (tool) {
    case tool_kind::ours:
      return "listening on port";
    case tool_kind::sockperf:
      return "to block on socket";  // printed by the server thread once its sockets are bound
    case tool_kind::netperf:
      return "Starting netserver";  // printed after the listen sockets are set up
  }
  throw std::invalid_argument("unknown tool");
}

std::vector<std::string> rr_runner::client_argv(tool_kind tool, const rr_case& c,
                                                std::uint16_t port) const {
  const std::string p = std::to_string(port);
  const std::string t = std::to_string(seconds_);
  const std::string sizes = fmt::format("{},{}", c.size, c.size);
  switch (tool) {
    case tool_kind::ours:
      return {paths_.hilperf, "-c", peer_address_, "-p",  p,   "--workload", c.workload,
              "-t",           t,    "-r",          sizes, "-J"};
    case tool_kind::sockperf: {
      std::vector<std::string> argv{paths_.sockperf, "ping-pong", "-i", peer_address_, "-p", p};
      if (is_tcp(c)) argv.emplace_back("--tcp");
      argv.insert(argv.end(), {"-t", t, "-m", std::to_string(c.size), "--full-rtt"});
      return argv;
    }
    case tool_kind::netperf:
      return {paths_.netperf,
              "-H",
              peer_address_,
              "-p",
              p,
              "-t",
              c.workload,
              "-l",
              t,
              "-P",
              "0",
              "--",
              "-r",
              sizes,
              "-o",
              std::string(netperf_selectors)};
  }
  throw std::invalid_argument("unknown tool");
}

run_outcome rr_runner::run(tool_kind tool, const rr_case& c) {
  const std::uint16_t port = next_port_++;
  hil::sys::child_process server(in_netns(layout_.peer_netns, true, server_argv(tool, c, port)));
  if (!server.wait_for_output(ready_text(tool), server_start_timeout)) {
    return {std::nullopt, fmt::format("the {} server did not start: {}", tool_name(tool),
                                      brief(server.output()))};
  }
  const auto argv = in_netns(layout_.dut_netns, false, client_argv(tool, c, port));
  last_command_ = hil::sys::quote_command(argv);
  hil::sys::child_process client(argv);
  const auto status = client.wait(std::chrono::seconds(seconds_) + client_slack);
  if (!status) {
    return {std::nullopt, fmt::format("the {} client did not finish within {} s", tool_name(tool),
                                      seconds_ + client_slack.count())};
  }
  if (tool == tool_kind::ours && *status == hilperf_no_extension) {
    return {std::nullopt,
            "hilperf-peer does not speak the request/response extension (hilperf exit code 3)"};
  }
  if (*status != 0) {
    return {std::nullopt, fmt::format("the {} client exited with {}: {}", tool_name(tool), *status,
                                      brief(client.output()))};
  }
  try {
    switch (tool) {
      case tool_kind::ours:
        return {parse_hilperf_json(client.output()), {}};
      case tool_kind::sockperf:
        return {parse_sockperf(client.output()), {}};
      case tool_kind::netperf:
        return {parse_netperf(client.output()), {}};
    }
  } catch (const std::runtime_error& e) {
    return {std::nullopt, e.what()};
  }
  return {std::nullopt, "unknown tool"};
}

}  // namespace hil::rr_bench_tool
