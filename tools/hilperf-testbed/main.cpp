// hilperf-testbed: brings the simulated bench up, takes it down, reports its status.
// A thin main over hil::bench (STYLE.md rule 1). Exit codes: 0 done, 1 a bench operation failed,
// 2 bad usage or profile.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "hil/bench/sim_bench.hpp"
#include "hil/link/link_control.hpp"
#include "hil/link/link_guard.hpp"
#include "hil/profile/profile.hpp"
#include "hil/sys/netns.hpp"

namespace {

namespace fs = std::filesystem;
using hil::bench::sim_layout;

// Puts back links that a killed run left changed, inside the DUT namespace, and says what it did.
int recover_in(const sim_layout& l) {
  return hil::sys::run_in_netns(l.dut_netns, [] {
    hil::link::link_control link;
    const hil::link::link_journal journal(hil::link::link_journal::default_dir());
    for (const auto& line : hil::link::recover_links(link, journal)) {
      std::cout << "hilperf-testbed: " << line << '\n';
    }
    return 0;
  });
}

int up(const hil::profile::profile& p, const std::optional<fs::path>& owner_file) {
  std::cout << hil::profile::echo(p);
  if (p.peer.mode != hil::profile::peer_mode::sim) {
    std::cout << "hilperf-testbed: " << p.source << " describes a real bench; nothing to build\n";
    return 0;
  }
  const sim_layout l = hil::bench::layout_of(p);
  const bool created = hil::bench::bench_up(l) == hil::bench::up_result::created;
  if (created && owner_file) std::ofstream(*owner_file) << ::getpid() << '\n';
  std::cout << "hilperf-testbed: bench " << p.sim.bench << (created ? " created" : " already up")
            << ": " << l.dut_netns << " [" << l.dut_interface << " " << l.dut_ipv4 << "] <-> "
            << l.peer_netns << " [" << l.peer_interface << " " << l.peer_ipv4 << "]"
            << (l.shape_mbit > 0 ? ", tbf " + std::to_string(l.shape_mbit) + " Mbit/s" : "")
            << ", peer MTU " << l.peer_mtu << '\n';
  return recover_in(l);
}

int down(const hil::profile::profile& p, const std::optional<fs::path>& owner_file) {
  if (p.peer.mode != hil::profile::peer_mode::sim) return 0;
  if (owner_file && !fs::exists(*owner_file)) {
    std::cout << "hilperf-testbed: the bench was up before this run; leaving it up\n";
    return 0;
  }
  hil::bench::bench_down(hil::bench::layout_of(p));
  if (owner_file) fs::remove(*owner_file);
  std::cout << "hilperf-testbed: bench " << p.sim.bench << " removed\n";
  return 0;
}

int status(const hil::profile::profile& p) {
  if (p.peer.mode != hil::profile::peer_mode::sim) {
    std::cout << p.source << " describes a real bench (no simulated bench)\n";
    return 0;
  }
  const sim_layout l = hil::bench::layout_of(p);
  std::cout << (hil::bench::bench_is_up(l) ? "up\n" : "down\n") << hil::bench::bench_status(l);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("hilperf-testbed: the simulated bench (two network namespaces joined by veth)");
  app.set_version_flag("--version", "hilperf-testbed " HIL_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // --profile may follow the subcommand: hilperf-testbed up --profile x.toml
  std::optional<std::string> profile_flag;
  std::optional<fs::path> owner_file;
  app.add_option("--profile", profile_flag,
                 "board profile (TOML); default $HILPERF_PROFILE, else " HIL_DEFAULT_PROFILE);
  auto* up_cmd = app.add_subcommand("up", "create the bench, or re-apply its settings");
  auto* down_cmd = app.add_subcommand("down", "remove the bench and everything in it");
  app.add_subcommand("status", "show namespaces, links, addresses and qdiscs");
  for (auto* cmd : {up_cmd, down_cmd}) {
    cmd->add_option("--owner-file", owner_file,
                    "up writes it when it created the bench; down acts only when it exists");
  }
  CLI11_PARSE(app, argc, argv);

  try {
    const auto p =
        hil::profile::load_profile(hil::profile::select_profile(profile_flag, HIL_DEFAULT_PROFILE));
    if (up_cmd->parsed()) return up(p, owner_file);
    if (down_cmd->parsed()) return down(p, owner_file);
    return status(p);
  } catch (const hil::profile::profile_error& e) {
    std::cerr << "hilperf-testbed: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-testbed: " << e.what() << '\n';
    return 1;
  }
}
