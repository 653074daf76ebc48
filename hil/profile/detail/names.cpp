// The rules for names a profile or farm file gives (detail/names.hpp, is_bench_name).
#include "hil/profile/detail/names.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string_view>

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

bool is_console_port(std::string_view port) {
  const auto scheme_end = port.find("://");
  if (scheme_end == std::string_view::npos) return true;  // a device path, or empty
  const std::string_view scheme = port.substr(0, scheme_end);
  if (scheme != "tcp" && scheme != "rfc2217") return false;
  const std::string_view address = port.substr(scheme_end + 3);
  const auto colon = address.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  const std::string_view host = address.substr(0, colon);
  const std::string_view number = address.substr(colon + 1);
  int value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (number.empty() || ec != std::errc{} || end != number.data() + number.size() || value < 1 ||
      value > 65535) {
    return false;
  }
  return std::none_of(host.begin(), host.end(),
                      [](char c) { return c == ',' || c == '(' || c == ')' || is_space(c); });
}

bool is_ssh_target(std::string_view target) {
  return !target.empty() && target.front() != '-' &&
         std::none_of(target.begin(), target.end(), [](char c) { return c == '"' || is_space(c); });
}

}  // namespace detail
}  // namespace hil::profile
