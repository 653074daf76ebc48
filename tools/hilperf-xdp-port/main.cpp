// hilperf-xdp-port: the simulated bench's Ethernet port emulated in XDP (docs/xdp.md, "The
// simulated port in XDP"). For each NETNS:IFNAME given, the port emulation (a token bucket that
// charges each frame its wire size at --mbit) on that receiving interface, whose receive poll runs
// meanwhile as a thread of its own; all put back when it stops. Prints one line per end, then
// "ready"; runs until SIGTERM, SIGINT or SIGHUP (or its parent's death), then prints each end's
// passed and dropped frames. A program of its own so that the case binaries, which start it
// (hil/bench/xdp_port.hpp), carry neither libbpf nor libxdp.
// Exit codes: 0 stopped by a signal, 1 cannot attach or detach, 2 bad usage.
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hil/xdp/netns_port.hpp"

namespace {

struct port_options {
  int mbit = 0;
  std::uint64_t bucket_bytes = 0;
  int napi_cpu = -1;
  std::vector<std::string> ends;  // NETNS:IFNAME
};

// The signals that stop the port, blocked in every thread so that main's sigwait takes them.
sigset_t stop_signals() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGTERM);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGHUP);
  return s;
}

std::string describe(const std::string& end, const hil::xdp::netns_port& port) {
  const auto& a = port.shaper().attachment();
  std::string line = "port " + end + ": " + std::string(hil::xdp::to_string(a.mode())) + " XDP";
  if (!a.native_refused().empty()) line += " (native refused: " + a.native_refused() + ")";
  return line + ", " + std::to_string(port.shaper().config().rate_bps) + " bit/s, bucket " +
         std::to_string(port.shaper().config().bucket_bits / 8) + " bytes";
}

int run(const port_options& o) {
  const sigset_t signals = stop_signals();
  ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before any thread starts
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  const hil::xdp::port_setting s{static_cast<std::uint64_t>(o.mbit) * 1'000'000ULL, o.bucket_bytes};
  std::vector<std::unique_ptr<hil::xdp::netns_port>> ports;
  for (const auto& end : o.ends) {
    const auto colon = end.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == end.size()) {
      std::cerr << "hilperf-xdp-port: " << end << " is not NETNS:IFNAME\n";
      return 2;
    }
    ports.push_back(
        std::make_unique<hil::xdp::netns_port>(end.substr(0, colon), end.substr(colon + 1), s));
    std::cout << describe(end, *ports.back()) << '\n';
  }
  std::cout << "ready" << std::endl;
  int sig = 0;
  ::sigwait(&signals, &sig);
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const auto r = ports[i]->read();
    std::cout << "port " << o.ends[i] << ": passed " << r.passed.frames << " frames, dropped "
              << r.dropped.frames << '\n';
  }
  while (!ports.empty()) ports.pop_back();  // in reverse
  std::cout << "stopped" << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"the simulated bench's Ethernet port emulated in XDP on receiving interfaces"};
  app.set_version_flag("--version", HIL_VERSION);
  port_options o;
  app.add_option("--mbit", o.mbit, "the port's line rate, Mbit/s")
      ->required()
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--bucket-bytes", o.bucket_bytes,
                 "wire bytes the port lets through back to back (at least the receiving ring's "
                 "frames)")
      ->required();
  app.add_option("--napi-cpu", o.napi_cpu,
                 "keep the receiving ends' NAPI threads on this CPU (default: anywhere)")
      ->check(CLI::Range(0, 4095));
  app.add_option("ends", o.ends, "NETNS:IFNAME, each a receiving end of the port")->required();
  CLI11_PARSE(app, argc, argv);
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::cerr << "hilperf-xdp-port: " << e.what() << '\n';
    return 1;
  }
}
