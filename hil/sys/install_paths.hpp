// Where the programs and files hilperf ships are found at run time, in the build tree and after
// `cmake --install` (or the .deb). Each program is built with the build-tree path of what it needs
// (HIL_PEER_BINARY, HIL_DEFAULT_PROFILE, ...) and with that file's path relative to its own
// installed location (../../bin/hilperf-peer from libexec/hilperf/); the first that applies wins:
//
//   1. $<env_var>, when the caller names one and it is set and not empty   (explicit override)
//   2. <directory of /proc/self/exe>/<relative>, when that file exists      (an installed tree)
//   3. the build-tree path                                                  (the build tree)
//
// In the build tree step 2 finds nothing (the executables sit in per-target directories there), so
// a build-tree run resolves exactly as before installing.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace hil::sys {

// The directory holding the running executable (from /proc/self/exe); empty when unreadable.
std::filesystem::path self_directory();

// The rule above as a pure function, for tests: env_value is the variable's value (nullopt when
// unset), exists the file test.
std::filesystem::path resolve_install_path(
    const std::optional<std::string>& env_value, const std::filesystem::path& self_dir,
    const std::filesystem::path& relative, const std::filesystem::path& build_path,
    const std::function<bool(const std::filesystem::path&)>& exists);

// The rule above for this process: env_var may be nullptr (no override), relative may be empty
// (nothing installed next to the executable).
std::filesystem::path locate_installed(const char* env_var, const std::filesystem::path& relative,
                                       const std::filesystem::path& build_path);

}  // namespace hil::sys
