// The rules for names a profile or farm file gives: interfaces and ssh targets (bench names:
// is_bench_name in profile.hpp). One rule each, for every file that takes such a name.
#pragma once

#include <string_view>

namespace hil::profile::detail {

// The kernel's dev_valid_name(): IFNAMSIZ 16 including the NUL; '/', ':' and whitespace refused.
bool is_interface_name(std::string_view name);
inline constexpr std::string_view interface_rule =
    "a Linux interface name (1 to 15 characters, no '/', ':' or whitespace, not \".\" or \"..\")";

// A console's port: a device path (anything without "://"), tcp://host:port or
// rfc2217://host:port (a host without ',', '(', ')' or whitespace, a port from 1 to 65535), or
// empty (none: dut.mode "console" requires one, profile_checks).
bool is_console_port(std::string_view port);
inline constexpr std::string_view console_port_rule =
    "a device path, tcp://host:port or rfc2217://host:port (port 1 to 65535)";

// user@host or host: not empty, no whitespace (ssh would split it) or double quote (a farm file's
// value is cut at one by ci/board-launcher), not starting with '-' (ssh would take an option).
bool is_ssh_target(std::string_view target);
inline constexpr std::string_view ssh_target_rule =
    "user@host (no whitespace or quotes, not starting with '-')";

}  // namespace hil::profile::detail
