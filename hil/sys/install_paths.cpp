#include "hil/sys/install_paths.hpp"

#include <cstdlib>
#include <system_error>

namespace hil::sys {

std::filesystem::path self_directory() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

std::filesystem::path resolve_install_path(
    const std::optional<std::string>& env_value, const std::filesystem::path& self_dir,
    const std::filesystem::path& relative, const std::filesystem::path& build_path,
    const std::function<bool(const std::filesystem::path&)>& exists) {
  if (env_value && !env_value->empty()) return *env_value;
  if (!self_dir.empty() && !relative.empty()) {
    // Normalised so messages and `ip netns exec` see /usr/bin/hilperf-peer, not libexec/../../bin.
    const auto installed = (self_dir / relative).lexically_normal();
    if (exists(installed)) return installed;
  }
  return build_path;
}

std::filesystem::path locate_installed(const char* env_var, const std::filesystem::path& relative,
                                       const std::filesystem::path& build_path) {
  std::optional<std::string> env_value;
  if (env_var != nullptr) {
    if (const char* value = std::getenv(env_var); value != nullptr) env_value = value;
  }
  return resolve_install_path(env_value, self_directory(), relative, build_path,
                              [](const std::filesystem::path& p) {
                                std::error_code ec;
                                return std::filesystem::is_regular_file(p, ec);
                              });
}

}  // namespace hil::sys
