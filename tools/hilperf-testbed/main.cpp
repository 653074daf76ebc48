// hilperf-testbed: brings the simulated bench up, takes it down, reports its status, starts and
// stops the peer. A thin main over hil::bench (docs/code-style.md rule 1): the options here, one
// function per subcommand in subcommands.hpp. Exit codes: 0 done, 1 a bench operation failed,
// 2 bad usage or profile.
// In a board farm (--farm, else $HILPERF_FARM, when no --profile is given) every subcommand acts on
// each board in turn, its owner file, pidfile and log suffixed with ".<board id>"; farm-spec
// writes the farm's CTest resource spec. profile-keys needs no profile: it prints (or writes into
// docs/profile.md) the profile reference table.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "hil/profile/farm.hpp"
#include "hil/profile/profile.hpp"
#include "subcommands.hpp"

namespace {

namespace fs = std::filesystem;

// The command line, and the subcommand it chose.
struct options {
  std::optional<std::string> profile;
  std::optional<std::string> farm;
  std::optional<fs::path> owner_file;
  std::optional<fs::path> spec_out;
  std::optional<fs::path> keys_doc;
  bool markdown = false;  // profile-keys --markdown: the only format there is, accepted as asked
  fs::path pidfile = "hilperf-peer.pid";
  fs::path log = "hilperf-peer.log";
  CLI::App* up = nullptr;
  CLI::App* down = nullptr;
  CLI::App* farm_spec = nullptr;
  CLI::App* peer_up = nullptr;
  CLI::App* peer_down = nullptr;
  CLI::App* profile_keys = nullptr;
};

void declare(CLI::App& app, options& o) {
  app.require_subcommand(1);
  app.fallthrough();  // --profile may follow the subcommand: hilperf-testbed up --profile x.toml
  app.add_option("--profile", o.profile,
                 "board profile (TOML); default $HILPERF_PROFILE, else " +
                     testbed::default_profile().string());
  app.add_option("--farm", o.farm,
                 "board farm (TOML, [boards.<id>] profile = ...); default $HILPERF_FARM; every "
                 "subcommand then acts on each board")
      ->excludes("--profile");
  o.up = app.add_subcommand("up", "create the bench, or re-apply its settings");
  o.down = app.add_subcommand("down", "remove the bench and everything in it");
  app.add_subcommand("status", "show namespaces, links, addresses and qdiscs");
  o.farm_spec = app.add_subcommand("farm-spec", "write the farm's CTest resource spec (JSON)");
  o.farm_spec->add_option("--out", o.spec_out, "the file to write; default stdout");
  o.profile_keys = app.add_subcommand(
      "profile-keys", "print the profile reference table (Markdown) made from the key table");
  o.profile_keys->add_flag("--markdown", o.markdown, "Markdown (the only format; the default)");
  o.profile_keys->add_option("--write", o.keys_doc,
                             "write it into this file between its markers (docs/profile.md)");
  o.peer_up = app.add_subcommand("peer-up", "start the sim peer (or check an external one)");
  o.peer_down = app.add_subcommand("peer-down", "stop the peer peer-up started");
  for (auto* cmd : {o.peer_up, o.peer_down}) {
    cmd->add_option("--pidfile", o.pidfile, "where peer-up writes the peer's pid")
        ->capture_default_str();
  }
  o.peer_up->add_option("--log", o.log, "the peer's output")->capture_default_str();
  for (auto* cmd : {o.up, o.down}) {
    cmd->add_option("--owner-file", o.owner_file,
                    "up writes it when it created the bench; down acts only when it exists");
  }
}

// The chosen subcommand on one board (id empty outside a farm).
int act(const options& o, const std::string& id, const hil::profile::profile& p) {
  using testbed::for_board;
  const auto owner = o.owner_file ? std::optional(for_board(*o.owner_file, id)) : std::nullopt;
  if (o.up->parsed()) return testbed::up(p, owner);
  if (o.down->parsed()) return testbed::down(p, owner);
  if (o.peer_up->parsed()) {
    return testbed::peer_up(p, for_board(o.pidfile, id), for_board(o.log, id));
  }
  if (o.peer_down->parsed()) return testbed::peer_down(p, for_board(o.pidfile, id));
  return testbed::status(p);
}

// A farm: every board gets its turn, also after another failed (down must remove them all).
int act_on_farm(const options& o, const fs::path& farm_file) {
  int rc = 0;
  for (auto& b : hil::profile::load_farm(farm_file).boards) {
    std::cout << "hilperf-testbed: farm board " << b.id << " (" << b.board.source << ")\n";
    try {
      rc = std::max(rc, act(o, b.id, b.board));
    } catch (const std::exception& e) {
      std::cerr << "hilperf-testbed: board " << b.id << ": " << e.what() << '\n';
      rc = std::max(rc, 1);
    }
  }
  return rc;
}

int run(const options& o) {
  if (o.profile_keys->parsed()) return testbed::profile_keys(o.keys_doc);
  std::optional<fs::path> farm_file =
      o.farm ? std::optional<fs::path>(*o.farm) : hil::profile::farm_from_environment();
  if (o.profile) farm_file.reset();  // an explicit profile means that one board
  if (o.farm_spec->parsed()) {
    if (!farm_file) {
      std::cerr << "hilperf-testbed: farm-spec needs a farm: --farm <file> or $HILPERF_FARM\n";
      return 2;
    }
    return testbed::farm_spec(*farm_file, o.spec_out);
  }
  if (farm_file) return act_on_farm(o, *farm_file);
  const auto p = hil::profile::load_profile(
      hil::profile::select_profile(o.profile, testbed::default_profile()));
  return act(o, "", p);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("hilperf-testbed: the simulated bench (two network namespaces joined by veth)");
  app.set_version_flag("--version", "hilperf-testbed " HIL_VERSION);
  options o;
  declare(app, o);
  CLI11_PARSE(app, argc, argv);
  try {
    return run(o);
  } catch (const hil::profile::profile_error& e) {
    std::cerr << "hilperf-testbed: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-testbed: " << e.what() << '\n';
    return 1;
  }
}
