// hilperf-testbed's subcommands, one function each, acting on one board's profile. Each returns
// the exit code (0 done, 1 failed) or throws std::exception with the cause.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "hil/profile/profile.hpp"

namespace testbed {

namespace fs = std::filesystem;

// The default profile: the installed share/hilperf/boards/ one, else the build tree's.
fs::path default_profile();

// up: creates the simulated bench (or re-applies its settings), writes owner_file when it created
// it, and puts back links a killed run left changed. Nothing to do for a real bench.
int up(const hil::profile::profile& p, const std::optional<fs::path>& owner_file);

// down: removes the simulated bench, unless owner_file is given and absent (the bench was up
// before this run).
int down(const hil::profile::profile& p, const std::optional<fs::path>& owner_file);

// peer-up: starts the peer (sim: in the peer namespace; ssh: on the PC) unless one answers, and
// waits until it answers; an external peer is only checked. A peer that does not answer fails.
int peer_up(const hil::profile::profile& p, const fs::path& pidfile, const fs::path& log);

// peer-down: stops the peer peer-up started (its pidfile).
int peer_down(const hil::profile::profile& p, const fs::path& pidfile);

// status: the bench's namespaces, links, addresses and qdiscs.
int status(const hil::profile::profile& p);

// farm-spec: the farm's CTest resource spec (JSON), to out_file or stdout.
int farm_spec(const fs::path& farm_file, const std::optional<fs::path>& out_file);

// profile-keys: the profile reference table (Markdown) to stdout, or, with doc_file, written into
// doc_file between its markers (docs/profile.md). Needs no profile.
int profile_keys(const std::optional<fs::path>& doc_file);

// The path with ".<board>" appended to its file name; unchanged outside a farm (board empty).
fs::path for_board(const fs::path& file, const std::string& board);

}  // namespace testbed
