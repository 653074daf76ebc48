#include "subcommands.hpp"

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <iterator>

#include <fmt/format.h>

#include "hil/bench/peer.hpp"
#include "hil/bench/sim_bench.hpp"
#include "hil/link/link_control.hpp"
#include "hil/link/link_guard.hpp"
#include "hil/profile/farm.hpp"
#include "hil/profile/reference.hpp"
#include "hil/sys/install_paths.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"

namespace testbed {

using hil::bench::sim_layout;

namespace {

// The peer and the default profile: $HILPERF_PEER_BINARY (the peer only), else the installed ones
// (bin/hilperf-peer, share/hilperf/boards/), else the build tree's (hil/sys/install_paths.hpp).
fs::path peer_binary() {
  return hil::sys::locate_installed("HILPERF_PEER_BINARY", HIL_PEER_INSTALLED, HIL_PEER_BINARY);
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

}  // namespace

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
// external peer; none for a console DUT. The dependent traffic cases need it: a peer that does not
// answer fails here.
int peer_up(const hil::profile::profile& p, const fs::path& pidfile, const fs::path& log) {
  using namespace std::chrono_literals;
  const std::string host = p.peer.ipv4;
  if (p.dut.mode == hil::profile::dut_mode::console) {
    // The rows of a DUT behind its console bring their own iPerf 2 end; a peer there would hold
    // the port they serve on.
    std::cout << "hilperf-testbed: no peer: dut.mode is \"console\", whose rows run hilperf's "
                 "own iPerf 2 end on the runner\n";
    return 0;
  }
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

fs::path default_profile() {
  return hil::sys::locate_installed(nullptr, HIL_DEFAULT_PROFILE_INSTALLED, HIL_DEFAULT_PROFILE);
}

int peer_down(const hil::profile::profile& p, const fs::path& pidfile) {
  if (hil::bench::stop_peer(p, pidfile)) std::cout << "hilperf-testbed: peer stopped\n";
  return 0;
}

int farm_spec(const fs::path& farm_file, const std::optional<fs::path>& out_file) {
  const std::string spec = hil::profile::resource_spec_json(hil::profile::load_farm(farm_file));
  if (!out_file) {
    std::cout << spec;
    return 0;
  }
  std::ofstream out(*out_file, std::ios::trunc);
  out << spec;
  out.close();
  if (!out) {
    std::cerr << "hilperf-testbed: cannot write " << out_file->string() << '\n';
    return 1;
  }
  return 0;
}

int profile_keys(const std::optional<fs::path>& doc_file) {
  if (!doc_file) {
    std::cout << hil::profile::reference_markdown();
    return 0;
  }
  std::ifstream in(*doc_file, std::ios::binary);
  const std::string old{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.is_open() || in.bad()) {
    std::cerr << "hilperf-testbed: cannot read " << doc_file->string() << '\n';
    return 1;
  }
  const std::string updated = hil::profile::with_reference(old);
  if (updated == old) {
    std::cout << "hilperf-testbed: " << doc_file->string() << ": the key table is up to date\n";
    return 0;
  }
  std::ofstream out(*doc_file, std::ios::binary | std::ios::trunc);
  out << updated;
  out.close();
  if (!out) {
    std::cerr << "hilperf-testbed: cannot write " << doc_file->string() << '\n';
    return 1;
  }
  std::cout << "hilperf-testbed: " << doc_file->string() << ": the key table is rewritten\n";
  return 0;
}

}  // namespace testbed
