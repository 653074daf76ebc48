// The profile's checks that span several keys (detail/profile_checks.hpp).
#include "hil/profile/detail/profile_checks.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "hil/profile/detail/key_table.hpp"

namespace hil::profile::detail {
namespace {

constexpr const char* durations_env = "HILPERF_DURATIONS";

// One address-valued key and the form it must have.
struct address_field {
  std::string_view key;
  std::string_view text;
  int family;        // AF_INET or AF_INET6
  bool with_prefix;  // "addr/len" (the DUT's own address) or a bare address (the peer's)
};

// True when the address lies in 198.18.0.0/15 (IPv4) or 2001:2::/48 (IPv6).
bool in_benchmark_range(const std::array<unsigned char, 16>& bytes, int family) {
  if (family == AF_INET) return bytes[0] == 198 && (bytes[1] & 0xfe) == 18;  // 198.18.0.0/15
  constexpr std::array<unsigned char, 6> prefix{0x20, 0x01, 0x00, 0x02, 0x00, 0x00};  // 2001:2::/48
  return std::equal(prefix.begin(), prefix.end(), bytes.begin());
}

// What is wrong with field's address, or an empty string when it is fine.
std::string address_problem(const address_field& field, bool sim) {
  const bool v4 = field.family == AF_INET;
  const std::string_view version = v4 ? "IPv4" : "IPv6";
  const std::string_view example = field.with_prefix ? (v4 ? "192.168.1.10/24" : "2001:db8::10/64")
                                                     : (v4 ? "192.168.1.195" : "2001:db8::195");
  const std::size_t slash = field.text.find('/');
  if (field.with_prefix != (slash != std::string_view::npos)) {
    return fmt::format("expected an {} address {} a prefix length like \"{}\", got \"{}\"", version,
                       field.with_prefix ? "with" : "without", example, field.text);
  }
  const std::string address(field.text.substr(0, slash));
  std::array<unsigned char, 16> bytes{};
  if (inet_pton(field.family, address.c_str(), bytes.data()) != 1) {
    return fmt::format("\"{}\" is not a valid {} address (expected e.g. \"{}\")", address, version,
                       example);
  }
  if (field.with_prefix) {
    const std::string_view length = field.text.substr(slash + 1);
    const int max_length = v4 ? 32 : 128;
    int value = 0;
    const auto [end, error] = std::from_chars(length.data(), length.data() + length.size(), value);
    if (error != std::errc() || end != length.data() + length.size() || value < 1 ||
        value > max_length) {
      return fmt::format("prefix length must be between 1 and {}, got \"{}\"", max_length, length);
    }
  }
  if (sim && !in_benchmark_range(bytes, field.family)) {
    return fmt::format("sim mode needs an address in the benchmarking range {}, got \"{}\"",
                       v4 ? "198.18.0.0/15 (RFC 2544)" : "2001:2::/48 (RFC 5180)", field.text);
  }
  return {};
}

}  // namespace

// Keys without which no check can run (the key table marks them), in the order of their names.
void check_required(const profile& p, pass_state& state) {
  std::vector<key_row> required;
  for (key_row& row : key_rows()) {
    if (!row.required.empty()) required.push_back(std::move(row));
  }
  std::ranges::sort(required, {}, &key_row::key);
  for (const key_row& row : required) {
    if (state.seen(row.key)) continue;
    const std::size_t dot = row.key.rfind('.');
    state.report(row.key, 0,
                 fmt::format("missing required key; add e.g. {} = {} under [{}]",
                             row.key.substr(dot + 1), row.required, row.key.substr(0, dot)));
  }
  const std::string_view target = "peer.ssh_target";
  if (state.valid("peer.mode") && p.peer.mode == peer_mode::ssh && p.peer.ssh_target.empty() &&
      !state.rejected(target)) {
    state.report(std::string(target), state.line_of(target),
                 "required when peer.mode is \"ssh\": the user@host the peer is started on");
  }
  const std::string_view console_port = "console.port";
  if (state.valid("dut.mode") && p.dut.mode == dut_mode::console && p.console.port.empty() &&
      !state.rejected(console_port)) {
    state.report(std::string(console_port), state.line_of(console_port),
                 "required when dut.mode is \"console\": the serial device, pty, "
                 "tcp://host:port or rfc2217://host:port the DUT's console is on");
  }
  if (p.console.setup_commands.size() != p.console.setup_replies.size() &&
      !state.rejected_in("console.setup_commands") && !state.rejected_in("console.setup_replies")) {
    const std::string_view replies = "console.setup_replies";
    state.report(std::string(replies), state.line_of(replies),
                 fmt::format("pairs with console.setup_commands, one reply per command: {} "
                             "commands, {} replies",
                             p.console.setup_commands.size(), p.console.setup_replies.size()));
  }
  // iperf3's authentication takes both or neither (as iperf3 -c --username
  // --rsa-public-key-path); padding without them means nothing.
  const bool user = !p.peer.username.empty();
  const bool key = !p.peer.rsa_public_key_path.empty();
  if (user != key) {
    const std::string_view missing = user ? "peer.rsa_public_key_path" : "peer.username";
    state.report(std::string(missing), 0,
                 "peer.username and peer.rsa_public_key_path go together (iperf3's "
                 "authentication; the password comes from IPERF3_PASSWORD)");
  }
  if (p.peer.use_pkcs1_padding && !user) {
    const std::string_view padding = "peer.use_pkcs1_padding";
    state.report(std::string(padding), state.line_of(padding),
                 "needs peer.username and peer.rsa_public_key_path");
  }
}

void check_addresses(const profile& p, pass_state& state) {
  const bool sim = state.valid("peer.mode") && p.peer.mode == peer_mode::sim;
  const std::array<address_field, 4> fields{{
      {"dut.ipv4", p.dut.ipv4, AF_INET, true},
      {"dut.ipv6", p.dut.ipv6, AF_INET6, true},
      {"peer.ipv4", p.peer.ipv4, AF_INET, false},
      {"peer.ipv6", p.peer.ipv6, AF_INET6, false},
  }};
  for (const address_field& field : fields) {
    if (!state.valid(field.key)) continue;  // missing or wrong type: reported
    if (field.family == AF_INET6 && field.text.empty()) continue;  // this bench has no IPv6
    if (std::string message = address_problem(field, sim); !message.empty()) {
      state.report(std::string(field.key), state.line_of(field.key), std::move(message));
    }
  }
  if (sim && p.dut.ipv6.empty() != p.peer.ipv6.empty() && !state.rejected("dut.ipv6") &&
      !state.rejected("peer.ipv6")) {
    const std::string_view empty = p.dut.ipv6.empty() ? "dut.ipv6" : "peer.ipv6";
    const std::string_view set = p.dut.ipv6.empty() ? "peer.ipv6" : "dut.ipv6";
    state.report(std::string(empty), state.line_of(empty),
                 fmt::format("sim mode needs dut.ipv6 and peer.ipv6 both set or both empty, but "
                             "only {} is set",
                             set));
  }
}

void check_history(const profile& p, pass_state& state) {
  if (!state.valid("history.url") || p.history.url.empty()) return;
  const std::string_view url = p.history.url;
  const std::string_view key = "history.url";
  if (!p.history.dir.empty() && state.valid("history.dir")) {
    state.report(std::string(key), state.line_of(key),
                 "set history.url or history.dir, not both (hilperf-report history import "
                 "copies a directory's runs into the store)");
  }
  const bool postgres = url.starts_with("postgresql://") || url.starts_with("postgres://");
  if (!postgres && !url.starts_with("sqlite:") && !url.starts_with("dir:")) {
    state.report(std::string(key), state.line_of(key),
                 fmt::format("must be sqlite:FILE, postgresql://user@host/database or "
                             "dir:DIRECTORY, got \"{}\"",
                             url));
    return;
  }
  // user:password@ in the authority, or a password parameter: the profile is no place for it.
  const auto authority = url.substr(url.find("://") + 3);
  const auto at = authority.substr(0, authority.find_first_of("/?")).rfind('@');
  const bool password = (at != std::string_view::npos &&
                         authority.substr(0, at).find(':') != std::string_view::npos) ||
                        url.find("password=") != std::string_view::npos;
  if (postgres && password) {
    state.report(std::string(key), state.line_of(key),
                 "holds a password: give it in PGPASSWORD or a pgpass file (~/.pgpass, "
                 "PGPASSFILE) on the runner, never in the profile");
  }
}

void apply_durations_env(profile& p, pass_state& state) {
  const char* value = std::getenv(durations_env);
  if (value == nullptr || *value == '\0') return;
  const std::string_view name(value);
  if (name == "quick" || name == "nightly") {
    p.duration_set_name = name;
  } else {
    state.report(fmt::format("{} (environment)", durations_env), 0,
                 fmt::format("must be \"quick\" or \"nightly\" (it overrides run.durations), got "
                             "\"{}\"",
                             name));
  }
}

}  // namespace hil::profile::detail
