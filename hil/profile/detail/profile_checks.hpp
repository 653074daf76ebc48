// The profile's checks that span several keys, run after every key was read (parse_profile):
// required keys, what peer.mode asks of others, addresses, and the HILPERF_DURATIONS override.
//
// A private header of the profile layer (its public headers may not use toml++).
#pragma once

#include "hil/profile/detail/toml_reader.hpp"
#include "hil/profile/profile.hpp"

namespace hil::profile::detail {

// Keys the key table marks required, peer.ssh_target in ssh mode, iperf3's authentication keys.
void check_required(const profile& p, pass_state& state);

// Address syntax, and in sim mode the benchmarking ranges and IPv6 on both ends or neither.
void check_addresses(const profile& p, pass_state& state);

// history.url: a scheme hilperf knows, no password in it, and not beside history.dir.
void check_history(const profile& p, pass_state& state);

// HILPERF_DURATIONS=quick|nightly, when set and non-empty, overrides run.durations, so a CI job
// can select the nightly durations without editing the board's profile. Any other value is a
// problem with the key "HILPERF_DURATIONS (environment)".
void apply_durations_env(profile& p, pass_state& state);

}  // namespace hil::profile::detail
