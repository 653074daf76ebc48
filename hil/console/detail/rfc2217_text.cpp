// The pure half of an RFC 2217 console: its address as libgensio's connect string, and the
// causes failures are named by. Built with or without libgensio.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "hil/console/detail/rfc2217.hpp"

namespace hil::console::detail {
namespace {

// What gensio's string syntax would read as a separator or an option list.
bool plain_gensio_word(std::string_view text) {
  return !text.empty() && std::ranges::none_of(text, [](char c) {
    return c == ',' || c == '(' || c == ')' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
  });
}

}  // namespace

std::string_view likely_cause(rfc2217_fault fault) noexcept {
  switch (fault) {
    case rfc2217_fault::refused:
      return "nothing listens there: is ser2net running, with a telnet(rfc2217),tcp,<port> "
             "accepter on that port?";
    case rfc2217_fault::unreachable:
      return "the host cannot be reached: check its name or address, and the network to it";
    case rfc2217_fault::no_answer:
      return "no answer in time: a firewall dropping the connection, or a server too busy to "
             "answer";
    case rfc2217_fault::closed:
      return "the server closed the connection: another client took the port (kickolduser), or "
             "the device behind it went away";
    case rfc2217_fault::not_rfc2217:
      return "not an RFC 2217 server: a raw tcp accepter wants tcp://host:port; for rfc2217:// "
             "ser2net's accepter is telnet(rfc2217),tcp,<port>";
    case rfc2217_fault::setting_refused:
      return "the server refused the setting, or left it unanswered as ser2net does: a rate "
             "its serial device (or its driver) cannot take";
    case rfc2217_fault::other:
      break;
  }
  return "see the error above";
}

std::string gensio_connect_string(std::string_view address) {
  const auto colon = address.rfind(':');
  const auto bad = [&](std::string_view why) {
    return std::invalid_argument(fmt::format("the console rfc2217://{}: {}", address, why));
  };
  if (colon == std::string_view::npos) throw bad("no port after the host (rfc2217://host:port)");
  std::string_view host = address.substr(0, colon);
  const std::string_view port = address.substr(colon + 1);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (!plain_gensio_word(host)) throw bad("no host, or one with a ',', '(', ')' or a blank in it");
  int number = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (port.empty() || ec != std::errc{} || end != port.data() + port.size() || number < 1 ||
      number > 65535) {
    throw bad(fmt::format("the port \"{}\" is no number from 1 to 65535", port));
  }
  return fmt::format("telnet(rfc2217),tcp,{},{}", host, number);
}

}  // namespace hil::console::detail
