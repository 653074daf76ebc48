// The rules for names a profile or farm file gives (detail/names.hpp, is_bench_name).
#include "hil/profile/detail/names.hpp"

#include <algorithm>
#include <cctype>

#include "hil/profile/profile.hpp"

namespace hil::profile {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

}  // namespace

bool is_bench_name(std::string_view name) {
  return !name.empty() && name.size() <= 8 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  });
}

namespace detail {

bool is_interface_name(std::string_view name) {
  if (name.empty() || name.size() > 15 || name == "." || name == "..") return false;
  return std::none_of(name.begin(), name.end(),
                      [](char c) { return c == '/' || c == ':' || is_space(c); });
}

bool is_ssh_target(std::string_view target) {
  return !target.empty() && target.front() != '-' &&
         std::none_of(target.begin(), target.end(), [](char c) { return c == '"' || is_space(c); });
}

}  // namespace detail
}  // namespace hil::profile
