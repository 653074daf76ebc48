// hilperf-testbed: brings the simulated bench up, takes it down, reports its status.
// A thin main over hil::bench (docs/code-style.md rule 1). Exit codes: 0 done, 1 a bench operation
// failed, 2 bad usage or profile.
// In a board farm (--farm, else $HILPERF_FARM, when no --profile is given) every subcommand acts on
// each board in turn, its owner file, pidfile and log suffixed with ".<board id>"; farm-spec
// writes the farm's CTest resource spec.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "hil/bench/peer.hpp"
#include "hil/bench/sim_bench.hpp"
#include "hil/link/link_control.hpp"
#include "hil/link/link_guard.hpp"
#include "hil/profile/farm.hpp"
#include "hil/profile/profile.hpp"
#include "hil/sys/install_paths.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"

namespace {

namespace fs = std::filesystem;
using hil::bench::sim_layout;

// The peer and the default profile: $HILPERF_PEER_BINARY (the peer only), else the installed ones
// (bin/hilperf-peer, share/hilperf/boards/), else the build tree's (hil/sys/install_paths.hpp).
fs::path peer_binary() {
  return hil::sys::locate_installed("HILPERF_PEER_BINARY", HIL_PEER_INSTALLED, HIL_PEER_BINARY);
}
fs::path default_profile() {
  return hil::sys::locate_installed(nullptr, HIL_DEFAULT_PROFILE_INSTALLED, HIL_DEFAULT_PROFILE);
}

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

// Starts the sim peer (unless one answers already) and waits until it answers; checks an
// external peer. The dependent traffic cases need it: a peer that does not answer fails here.
int peer_up(const hil::profile::profile& p, const fs::path& pidfile, const fs::path& log) {
  using namespace std::chrono_literals;
  const std::string host = p.peer.ipv4;
  if (p.peer.mode == hil::profile::peer_mode::external) {
    hil::bench::require_peer(host, p.peer.port, 10s);
    std::cout << "hilperf-testbed: the external peer " << host << ":" << p.peer.port
              << " answers\n";
    return 0;
  }
  if (p.peer.mode == hil::profile::peer_mode::ssh) {
    const std::string pid = hil::bench::start_ssh_peer(p, pidfile);
    try {
      hil::bench::require_peer(host, p.peer.port, 10s);
    } catch (const std::exception&) {
      const auto remote_log = hil::sys::run(
          hil::bench::ssh_command(p, fmt::format("cat /tmp/hilperf-peer-{}.log", p.peer.port)));
      hil::bench::stop_peer(p, pidfile);
      std::cerr << "hilperf-testbed: the peer started over ssh (pid " << pid
                << ") does not answer; its log on " << p.peer.ssh_target << ":\n"
                << remote_log.output << '\n';
      throw;
    }
    std::cout << "hilperf-testbed: peer started on " << p.peer.ssh_target << " over ssh (pid "
              << pid << ") answers on " << host << ":" << p.peer.port << '\n';
    return 0;
  }
  const auto answers = [&](std::chrono::milliseconds timeout) {
    return hil::sys::run_in_netns(p.dut_netns(), [&] {
             return hil::bench::peer_answers(host, p.peer.port, timeout) ? 0 : 1;
           }) == 0;
  };
  if (answers(300ms)) {
    std::cout << "hilperf-testbed: a peer already answers on " << host << ":" << p.peer.port
              << '\n';
    return 0;
  }
  const auto command = hil::bench::sim_peer_command(p, peer_binary());
  const pid_t pid = hil::bench::start_daemon(p.peer_netns(), command, log, pidfile);
  if (!answers(10s)) {
    hil::bench::stop_daemon(pidfile);
    std::ifstream in(log);
    std::cerr << "hilperf-testbed: the peer (" << command.front() << ", pid " << pid
              << ") did not answer on " << host << ":" << p.peer.port << " within 10 s; its log:\n"
              << in.rdbuf() << '\n';
    return 1;
  }
  std::cout << "hilperf-testbed: peer " << command.front() << " (pid " << pid << ") answers on "
            << host << ":" << p.peer.port << " in " << p.peer_netns() << "; log " << log.string()
            << '\n';
  return 0;
}

// The path with ".<board>" appended to its file name; unchanged outside a farm.
fs::path for_board(const fs::path& file, const std::string& board) {
  if (board.empty()) return file;
  fs::path out = file;
  out += "." + board;
  return out;
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
  std::optional<std::string> farm_flag;
  std::optional<fs::path> spec_out;
  app.add_option(
      "--profile", profile_flag,
      "board profile (TOML); default $HILPERF_PROFILE, else " + default_profile().string());
  app.add_option("--farm", farm_flag,
                 "board farm (TOML, [boards.<id>] profile = ...); default $HILPERF_FARM; every "
                 "subcommand then acts on each board")
      ->excludes("--profile");
  auto* up_cmd = app.add_subcommand("up", "create the bench, or re-apply its settings");
  auto* down_cmd = app.add_subcommand("down", "remove the bench and everything in it");
  app.add_subcommand("status", "show namespaces, links, addresses and qdiscs");
  auto* farm_spec_cmd =
      app.add_subcommand("farm-spec", "write the farm's CTest resource spec (JSON)");
  farm_spec_cmd->add_option("--out", spec_out, "the file to write; default stdout");
  fs::path pidfile = "hilperf-peer.pid";
  fs::path log = "hilperf-peer.log";
  auto* peer_up_cmd =
      app.add_subcommand("peer-up", "start the sim peer (or check an external one)");
  auto* peer_down_cmd = app.add_subcommand("peer-down", "stop the peer peer-up started");
  for (auto* cmd : {peer_up_cmd, peer_down_cmd}) {
    cmd->add_option("--pidfile", pidfile, "where peer-up writes the peer's pid")
        ->capture_default_str();
  }
  peer_up_cmd->add_option("--log", log, "the peer's output")->capture_default_str();
  for (auto* cmd : {up_cmd, down_cmd}) {
    cmd->add_option("--owner-file", owner_file,
                    "up writes it when it created the bench; down acts only when it exists");
  }
  CLI11_PARSE(app, argc, argv);

  try {
    std::optional<fs::path> farm_file =
        farm_flag ? std::optional<fs::path>(*farm_flag) : hil::profile::farm_from_environment();
    if (profile_flag) farm_file.reset();  // an explicit profile means that one board
    if (farm_spec_cmd->parsed()) {
      if (!farm_file) {
        std::cerr << "hilperf-testbed: farm-spec needs a farm: --farm <file> or $HILPERF_FARM\n";
        return 2;
      }
      const std::string spec =
          hil::profile::resource_spec_json(hil::profile::load_farm(*farm_file));
      if (spec_out) {
        std::ofstream out(*spec_out, std::ios::trunc);
        out << spec;
        out.close();
        if (!out) {
          std::cerr << "hilperf-testbed: cannot write " << spec_out->string() << '\n';
          return 1;
        }
      } else {
        std::cout << spec;
      }
      return 0;
    }
    // (board id, profile): the farm's boards, or the one profile with no id.
    std::vector<std::pair<std::string, hil::profile::profile>> boards;
    if (farm_file) {
      for (auto& b : hil::profile::load_farm(*farm_file).boards) {
        boards.emplace_back(b.id, std::move(b.board));
      }
    } else {
      boards.emplace_back("", hil::profile::load_profile(
                                  hil::profile::select_profile(profile_flag, default_profile())));
    }
    // One board's part of the subcommand.
    const auto act = [&](const std::string& id, const hil::profile::profile& p) {
      const auto owner = owner_file ? std::optional(for_board(*owner_file, id)) : std::nullopt;
      if (up_cmd->parsed()) return up(p, owner);
      if (down_cmd->parsed()) return down(p, owner);
      if (peer_up_cmd->parsed()) return peer_up(p, for_board(pidfile, id), for_board(log, id));
      if (peer_down_cmd->parsed()) {
        if (hil::bench::stop_peer(p, for_board(pidfile, id))) {
          std::cout << "hilperf-testbed: peer stopped\n";
        }
        return 0;
      }
      return status(p);
    };
    if (boards.size() == 1 && boards.front().first.empty()) {
      return act("", boards.front().second);
    }
    // A farm: every board gets its turn, also after another failed (down must remove them all).
    int rc = 0;
    for (const auto& [id, p] : boards) {
      std::cout << "hilperf-testbed: farm board " << id << " (" << p.source << ")\n";
      try {
        rc = std::max(rc, act(id, p));
      } catch (const std::exception& e) {
        std::cerr << "hilperf-testbed: board " << id << ": " << e.what() << '\n';
        rc = std::max(rc, 1);
      }
    }
    return rc;
  } catch (const hil::profile::profile_error& e) {
    std::cerr << "hilperf-testbed: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-testbed: " << e.what() << '\n';
    return 1;
  }
}
