// Board profile loading: TOML text to a validated profile in ONE pass that collects every problem.
//
//   toml::parse ──(syntax error)──────────────────────────────────> profile_error, one problem
//        │
//        ▼
//   read_keys(root, top_keys) ── per table, a list of key descriptors {name, reader}; each reader
//        │                       reports wrong type / out of range / bad enum for its own value,
//        │                       read_keys reports unknown keys and tables
//        ▼
//   check_required, check_addresses, apply_durations_env ── checks that span several keys
//        ▼
//   problems sorted by line (missing keys last) ──> profile_error, or the profile
//
// Adding a key is one line in its table's descriptor list (and one line in profile_echo.cpp).
//
// Environment: HILPERF_DURATIONS=quick|nightly, when set and non-empty, overrides run.durations, so
// a CI job can select the nightly durations without editing the board's profile. Any other value is
// a problem with the key "HILPERF_DURATIONS (environment)".
#include <arpa/inet.h>
#include <fmt/format.h>
#include <sys/socket.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "hil/profile/profile.hpp"

namespace hil::profile {
namespace {

constexpr const char* durations_env = "HILPERF_DURATIONS";

// Everything one validation pass learns: the problems, and where each known key was.
class pass_state {
 public:
  // Records a problem; line is 0 when the key is missing.
  void report(std::string key, int line, std::string message) {
    problems_.push_back({std::move(key), line, std::move(message)});
  }
  // Notes that a known key was present at line, whatever its value.
  void mark_seen(const std::string& key, int line) { lines_[key] = line; }
  // True when the key was present in the text.
  [[nodiscard]] bool seen(std::string_view key) const { return lines_.find(key) != lines_.end(); }
  // The key's source line, 0 when it was absent.
  [[nodiscard]] int line_of(std::string_view key) const {
    const auto found = lines_.find(key);
    return found == lines_.end() ? 0 : found->second;
  }
  // True when a problem was already reported for the key.
  [[nodiscard]] bool rejected(std::string_view key) const {
    return std::any_of(problems_.begin(), problems_.end(),
                       [key](const problem& p) { return p.key == key; });
  }
  // True when the key was present and its value accepted.
  [[nodiscard]] bool valid(std::string_view key) const { return seen(key) && !rejected(key); }
  // The problems in source-line order, line-less ones (missing keys, environment) last.
  [[nodiscard]] std::vector<problem> sorted_problems() const {
    std::vector<problem> sorted = problems_;
    std::stable_sort(sorted.begin(), sorted.end(), [](const problem& a, const problem& b) {
      return std::pair(a.line == 0, a.line) < std::pair(b.line == 0, b.line);
    });
    return sorted;
  }

 private:
  std::vector<problem> problems_;
  std::map<std::string, int, std::less<>> lines_;
};

// The 1-based line a value starts on.
int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

// "a string", "an integer", ... for wrong-type messages.
std::string_view type_phrase(toml::node_type type) {
  switch (type) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

// One TOML value being read into a profile field; every misfit becomes a problem with the
// value's dotted key and line, and the reader returns nothing so the field keeps its default.
class value_reader {
 public:
  value_reader(const toml::node& node, std::string key, pass_state& state)
      : node_(node), key_(std::move(key)), state_(state) {}

  [[nodiscard]] const std::string& key() const { return key_; }
  [[nodiscard]] pass_state& state() const { return state_; }
  // Reports message as a problem of this value.
  void fail(std::string message) const { state_.report(key_, line_of(node_), std::move(message)); }
  // The table, or nullptr after reporting the wrong type.
  [[nodiscard]] const toml::table* table() const { return expect(node_.as_table(), "a table"); }
  // The array, or nullptr after reporting the wrong type.
  [[nodiscard]] const toml::array* array() const { return expect(node_.as_array(), "an array"); }
  // A string of any content.
  [[nodiscard]] std::optional<std::string> string() const {
    const auto* value = expect(node_.as_string(), "a string");
    return value != nullptr ? std::optional(value->get()) : std::nullopt;
  }
  // true or false.
  [[nodiscard]] std::optional<bool> boolean() const {
    const auto* value = expect(node_.as_boolean(), "a boolean (true or false)");
    return value != nullptr ? std::optional(value->get()) : std::nullopt;
  }
  // An integer in [low, high].
  [[nodiscard]] std::optional<std::int64_t> integer(std::int64_t low, std::int64_t high) const {
    const auto* value = expect(node_.as_integer(), "an integer");
    if (value == nullptr) return std::nullopt;
    if (value->get() < low || value->get() > high) {
      fail(fmt::format("must be between {} and {}, got {}", low, high, value->get()));
      return std::nullopt;
    }
    return value->get();
  }
  // An integer or float greater than 0 and, when high is given, at most high.
  [[nodiscard]] std::optional<double> positive_number(std::optional<double> high = {}) const {
    std::optional<double> number;
    if (const auto* i = node_.as_integer()) number = static_cast<double>(i->get());
    if (const auto* f = node_.as_floating_point()) number = f->get();
    if (!number) {
      fail(fmt::format("expected a number, got {}", type_phrase(node_.type())));
    } else if (!std::isfinite(*number) || *number <= 0.0 || (high && *number > *high)) {
      fail(high ? fmt::format("must be greater than 0 and at most {}, got {}", *high, *number)
                : fmt::format("must be greater than 0, got {}", *number));
      number.reset();
    }
    return number;
  }
  // An integer or float of at least 0 (0 = no limit).
  [[nodiscard]] std::optional<double> optional_limit() const {
    std::optional<double> number;
    if (const auto* i = node_.as_integer()) number = static_cast<double>(i->get());
    if (const auto* f = node_.as_floating_point()) number = f->get();
    if (!number) {
      fail(fmt::format("expected a number, got {}", type_phrase(node_.type())));
    } else if (!std::isfinite(*number) || *number < 0.0) {
      fail(fmt::format("must be 0 (not checked) or more, got {}", *number));
      number.reset();
    }
    return number;
  }
  // A string for which is_valid holds; rule says what a valid one looks like.
  [[nodiscard]] std::optional<std::string> string_where(bool (*is_valid)(std::string_view),
                                                        std::string_view rule) const {
    std::optional<std::string> text = string();
    if (text && !is_valid(*text)) {
      fail(fmt::format("must be {}, got \"{}\"", rule, *text));
      text.reset();
    }
    return text;
  }
  // One of the allowed names, mapped to its value.
  template <class Value, std::size_t N>
  [[nodiscard]] std::optional<Value> choice(
      const std::array<std::pair<std::string_view, Value>, N>& allowed) const {
    const std::optional<std::string> text = string();
    if (!text) return std::nullopt;
    for (const auto& [name, value] : allowed) {
      if (name == *text) return value;
    }
    std::string names;
    for (const auto& entry : allowed) {
      names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", entry.first);
    }
    fail(fmt::format("must be one of {}; got \"{}\"", names, *text));
    return std::nullopt;
  }

 private:
  template <class Typed>
  Typed* expect(Typed* typed, std::string_view expected) const {
    if (typed == nullptr) {
      fail(fmt::format("expected {}, got {}", expected, type_phrase(node_.type())));
    }
    return typed;
  }

  const toml::node& node_;
  std::string key_;
  pass_state& state_;
};

// A known key of one table: its name and how its value is read into Target. The readers below are
// captureless generic lambdas, [](auto& r, auto& target), converted to this pointer type.
template <class Target>
struct key_spec {
  std::string_view name;
  void (*read)(const value_reader&, Target&);
};

// Stores an accepted value; a rejected one leaves the field at its default.
template <class Field, class Value>
void store(const std::optional<Value>& value, Field& field) {
  if (value) field = static_cast<Field>(*value);
}

// Edit distance, for "did you mean" hints on misspelt keys.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// "unknown key; known keys in [dut]: interface, ipv4, ipv6 (did you mean "ipv4"?)".
template <class Target, std::size_t N>
std::string unknown_message(const toml::node& node, std::string_view path, std::string_view name,
                            const std::array<key_spec<Target>, N>& keys) {
  std::string names;
  std::string_view closest;
  std::size_t closest_distance = 3;  // suggest only near misses
  for (const key_spec<Target>& spec : keys) {
    names += fmt::format("{}{}", names.empty() ? "" : ", ", spec.name);
    if (const std::size_t d = edit_distance(name, spec.name); d < closest_distance) {
      closest = spec.name;
      closest_distance = d;
    }
  }
  return fmt::format(
      "unknown {}; known {}: {}{}", node.is_table() ? "table" : "key",
      path.empty() ? std::string("tables") : fmt::format("keys in [{}]", path), names,
      closest.empty() ? std::string() : fmt::format(" (did you mean \"{}\"?)", closest));
}

// Reads every key of table through keys; path is the table's dotted name ("" for the root).
template <class Target, std::size_t N>
void read_keys(const toml::table& table, std::string_view path,
               const std::array<key_spec<Target>, N>& keys, Target& target, pass_state& state) {
  for (const auto& [key, node] : table) {
    const std::string_view name = key.str();  // clang < 16 cannot capture a binding
    const std::string dotted = path.empty() ? std::string(name) : fmt::format("{}.{}", path, name);
    const auto spec = std::find_if(keys.begin(), keys.end(),
                                   [name](const key_spec<Target>& s) { return s.name == name; });
    if (spec == keys.end()) {
      state.report(dotted, line_of(node), unknown_message(node, path, name, keys));
      continue;
    }
    state.mark_seen(dotted, line_of(node));
    spec->read(value_reader(node, dotted, state), target);
  }
}

// Reads a value that must be a table through its own key list.
template <class Target, std::size_t N>
void read_table(const value_reader& r, const std::array<key_spec<Target>, N>& keys,
                Target& target) {
  if (const toml::table* table = r.table()) read_keys(*table, r.key(), keys, target, r.state());
}

// The kernel's dev_valid_name(): IFNAMSIZ 16 including the NUL; '/', ':' and whitespace refused.
bool is_interface_name(std::string_view name) {
  if (name.empty() || name.size() > 15 || name == "." || name == "..") return false;
  return std::none_of(name.begin(), name.end(), [](char c) {
    return c == '/' || c == ':' || std::isspace(static_cast<unsigned char>(c)) != 0;
  });
}
constexpr std::string_view interface_rule =
    "a Linux interface name (1 to 15 characters, no '/', ':' or whitespace, not \".\" or \"..\")";

// Empty (unset) or user@host / host; a leading '-' would be taken by ssh as an option.
bool is_ssh_target(std::string_view target) {
  return target.empty() ||
         (target.front() != '-' && std::none_of(target.begin(), target.end(), [](char c) {
            return std::isspace(static_cast<unsigned char>(c)) != 0;
          }));
}

constexpr std::array<std::pair<std::string_view, peer_mode>, 3> peer_modes{
    {{"sim", peer_mode::sim}, {"ssh", peer_mode::ssh}, {"external", peer_mode::external}}};
constexpr std::array<std::pair<std::string_view, peer_server>, 4> peer_servers{
    {{"hilperf-peer", peer_server::hilperf_peer},
     {"iperf3", peer_server::iperf3},
     {"iperf2", peer_server::iperf2},
     {"netserver", peer_server::netserver}}};
constexpr std::array<std::pair<std::string_view, duplex_mode>, 2> duplex_modes{
    {{"full", duplex_mode::full}, {"half", duplex_mode::half}}};
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> duration_set_names{
    {{"quick", "quick"}, {"nightly", "nightly"}}};

constexpr int min_mtu = 68;  // RFC 791: the smallest MTU every IPv4 host must accept
constexpr int max_mtu = 65535;

// Addresses are only read here; check_addresses validates them once peer.mode is known.
constexpr std::array<key_spec<dut_config>, 3> dut_keys{{
    {"interface",
     [](auto& r, auto& d) {
       store(r.string_where(is_interface_name, interface_rule), d.interface);
     }},
    {"ipv4", [](auto& r, auto& d) { store(r.string(), d.ipv4); }},
    {"ipv6", [](auto& r, auto& d) { store(r.string(), d.ipv6); }},
}};

constexpr std::array<key_spec<peer_config>, 12> peer_keys{{
    {"mode", [](auto& r, auto& c) { store(r.choice(peer_modes), c.mode); }},
    {"ipv4", [](auto& r, auto& c) { store(r.string(), c.ipv4); }},
    {"ipv6", [](auto& r, auto& c) { store(r.string(), c.ipv6); }},
    {"port", [](auto& r, auto& c) { store(r.integer(1, 65535), c.port); }},
    {"ssh_target",
     [](auto& r, auto& c) {
       store(r.string_where(is_ssh_target, "user@host (no whitespace, not starting with '-')"),
             c.ssh_target);
     }},
    {"server", [](auto& r, auto& c) { store(r.choice(peer_servers), c.server); }},
    {"ssh_command", [](auto& r, auto& c) { store(r.string(), c.ssh_command); }},
    {"udp_buffer_bytes",
     [](auto& r, auto& c) { store(r.integer(0, 512 << 20), c.udp_buffer_bytes); }},
    {"netserver_port", [](auto& r, auto& c) { store(r.integer(1, 65535), c.netserver_port); }},
    {"username", [](auto& r, auto& c) { store(r.string(), c.username); }},
    {"rsa_public_key_path", [](auto& r, auto& c) { store(r.string(), c.rsa_public_key_path); }},
    {"use_pkcs1_padding", [](auto& r, auto& c) { store(r.boolean(), c.use_pkcs1_padding); }},
}};

constexpr std::array<key_spec<link_expectation>, 2> link_keys{{
    {"speed_mbps", [](auto& r, auto& l) { store(r.integer(10, 400000), l.speed_mbps); }},
    {"duplex", [](auto& r, auto& l) { store(r.choice(duplex_modes), l.duplex); }},
}};

constexpr std::array<key_spec<thresholds>, 7> threshold_keys{{
    {"tcp_dut_transmits_mbps",
     [](auto& r, auto& t) { store(r.positive_number(), t.tcp_dut_transmits_mbps); }},
    {"tcp_dut_receives_mbps",
     [](auto& r, auto& t) { store(r.positive_number(), t.tcp_dut_receives_mbps); }},
    {"tcp_retransmits_per_interval",
     [](auto& r, auto& t) { store(r.integer(1, 1000000), t.tcp_retransmits_per_interval); }},
    {"datagram_count_tolerance_percent",
     [](auto& r, auto& t) { store(r.positive_number(50.0), t.datagram_count_tolerance_percent); }},
    {"bidir_each_way_mbps",
     [](auto& r, auto& t) { store(r.positive_number(), t.bidir_each_way_mbps); }},
    {"parallel_total_mbps",
     [](auto& r, auto& t) { store(r.positive_number(), t.parallel_total_mbps); }},
    {"parallel_streams", [](auto& r, auto& t) { store(r.integer(2, 128), t.parallel_streams); }},
}};

// A non-empty, strictly increasing array of integers in [low, high] (what: "tiers", "frame
// sizes", for the order problem; empty: the problem of an empty array); element problems carry
// their index. nullopt after reporting any problem.
std::optional<std::vector<int>> read_increasing(const value_reader& r, std::int64_t low,
                                                std::int64_t high, std::string_view what,
                                                std::string_view empty) {
  const toml::array* array = r.array();
  if (array == nullptr) return std::nullopt;
  if (array->empty()) {
    r.fail(std::string(empty));
    return std::nullopt;
  }
  std::vector<int> values;
  bool all_valid = true;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const value_reader element((*array)[i], fmt::format("{}[{}]", r.key(), i), r.state());
    const std::optional<std::int64_t> value = element.integer(low, high);
    if (!value) {
      all_valid = false;
    } else if (!values.empty() && *value <= values.back()) {
      element.fail(fmt::format("{} must be strictly increasing, but {} follows {}", what, *value,
                               values.back()));
      all_valid = false;
    } else {
      values.push_back(static_cast<int>(*value));
    }
  }
  return all_valid ? std::optional(std::move(values)) : std::nullopt;
}

// mtu.tiers: a non-empty, strictly increasing array of MTUs.
void read_tiers(const value_reader& r, mtu_config& mtu) {
  store(read_increasing(r, min_mtu, max_mtu, "tiers",
                        "must list at least one MTU, e.g. [576, 1500, 3000]"),
        mtu.tiers);
}

constexpr std::array<key_spec<mtu_config>, 3> mtu_keys{{
    {"tiers", read_tiers},
    {"jumbo", [](auto& r, auto& m) { store(r.integer(min_mtu, max_mtu), m.jumbo); }},
    {"jumbo_enabled", [](auto& r, auto& m) { store(r.boolean(), m.jumbo_enabled); }},
}};

constexpr std::int64_t max_seconds = 86400;  // one day
constexpr std::array<key_spec<duration_set>, 10> duration_keys{{
    {"tcp_seconds", [](auto& r, auto& d) { store(r.integer(1, max_seconds), d.tcp_seconds); }},
    {"udp_seconds", [](auto& r, auto& d) { store(r.integer(1, max_seconds), d.udp_seconds); }},
    {"txrx_seconds", [](auto& r, auto& d) { store(r.integer(1, max_seconds), d.txrx_seconds); }},
    {"interval_seconds",
     [](auto& r, auto& d) { store(r.integer(1, max_seconds), d.interval_seconds); }},
    {"netperf_seconds",
     [](auto& r, auto& d) { store(r.integer(1, max_seconds), d.netperf_seconds); }},
    {"latency_seconds",
     [](auto& r, auto& d) { store(r.integer(1, max_seconds), d.latency_seconds); }},
    {"rfc2544_trial_seconds",
     [](auto& r, auto& d) { store(r.integer(1, max_seconds), d.rfc2544_trial_seconds); }},
    {"rfc2544_confirm_seconds",
     [](auto& r, auto& d) { store(r.integer(1, max_seconds), d.rfc2544_confirm_seconds); }},
    {"rfc2544_back_to_back_repeats",
     [](auto& r, auto& d) { store(r.integer(1, 1000), d.rfc2544_back_to_back_repeats); }},
    {"y1564_step_seconds",
     [](auto& r, auto& d) { store(r.integer(1, max_seconds), d.y1564_step_seconds); }},
}};

// Ethernet frames: 64 bytes at least, at most the largest MTU's frame (+ 14 header + 4 FCS).
constexpr int min_frame = 64;
constexpr int max_frame = max_mtu + 18;

// rfc2544.frame_sizes: a non-empty, strictly increasing array of frame sizes.
void read_frame_sizes(const value_reader& r, rfc2544_config& c) {
  store(read_increasing(r, min_frame, max_frame, "frame sizes",
                        "must list at least one frame size, e.g. [64, 128, 256, 512, 1024, 1280, "
                        "1518]"),
        c.frame_sizes);
}

// rfc2544.min_percent_by_frame: { frame64 = 30.0, … }, each key a frame size as the cases name it.
void read_min_percent_by_frame(const value_reader& r, rfc2544_config& c) {
  const toml::table* table = r.table();
  if (table == nullptr) return;
  for (const auto& [key, node] : *table) {
    const std::string name(key.str());
    const std::string dotted = fmt::format("{}.{}", r.key(), name);
    const value_reader value(node, dotted, r.state());
    int frame = 0;
    const bool named =
        name.size() > 5 && name.compare(0, 5, "frame") == 0 &&
        std::all_of(name.begin() + 5, name.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) &&
        name.size() <= 10;
    if (named) frame = std::stoi(name.substr(5));
    if (!named || frame < min_frame || frame > max_frame) {
      value.fail(
          fmt::format("must be named frame<bytes> for a frame of {} to {} bytes, e.g. "
                      "frame64 = 30.0",
                      min_frame, max_frame));
      continue;
    }
    r.state().mark_seen(dotted, line_of(node));
    if (const auto percent = value.positive_number(100.0)) {
      c.min_percent_by_frame.emplace_back(frame, *percent);
    }
  }
}

// rfc2544.directions: a non-empty array of distinct "dut_transmits" / "dut_receives".
void read_directions(const value_reader& r, rfc2544_config& c) {
  static constexpr std::array<std::pair<std::string_view, frame_direction>, 2> names{
      {{"dut_transmits", frame_direction::dut_transmits},
       {"dut_receives", frame_direction::dut_receives}}};
  const toml::array* array = r.array();
  if (array == nullptr) return;
  if (array->empty()) {
    r.fail("must list at least one direction, e.g. [\"dut_transmits\", \"dut_receives\"]");
    return;
  }
  std::vector<frame_direction> values;
  bool all_valid = true;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const value_reader element((*array)[i], fmt::format("{}[{}]", r.key(), i), r.state());
    const auto d = element.choice(names);
    if (!d) {
      all_valid = false;
    } else if (std::ranges::find(values, *d) != values.end()) {
      element.fail("lists a direction twice");
      all_valid = false;
    } else {
      values.push_back(*d);
    }
  }
  if (all_valid) c.directions = std::move(values);
}

// rfc2544.ip_versions: [4], [6] or [4, 6].
void read_ip_versions(const value_reader& r, rfc2544_config& c) {
  auto versions = read_increasing(r, 4, 6, "IP versions", "must list 4, 6 or both, e.g. [4, 6]");
  if (versions && std::ranges::find(*versions, 5) != versions->end()) {
    r.fail("must list 4, 6 or both; 5 is no IP version");
    return;
  }
  store(std::move(versions), c.ip_versions);
}

constexpr std::array<key_spec<rfc2544_config>, 12> rfc2544_keys{{
    {"frame_sizes", read_frame_sizes},
    {"resolution_percent",
     [](auto& r, auto& c) { store(r.positive_number(50.0), c.resolution_percent); }},
    {"accepted_loss_percent",
     [](auto& r, auto& c) {
       const auto v = r.optional_limit();
       if (v && *v >= 100.0) {
         r.fail(fmt::format("must be below 100, got {}", *v));
         return;
       }
       store(v, c.accepted_loss_percent);
     }},
    {"min_percent", [](auto& r, auto& c) { store(r.positive_number(100.0), c.min_percent); }},
    {"min_percent_by_frame", read_min_percent_by_frame},
    {"line_mbps", [](auto& r, auto& c) { store(r.integer(0, 1'000'000), c.line_mbps); }},
    {"loss_step_percent",
     [](auto& r, auto& c) { store(r.positive_number(10.0), c.loss_step_percent); }},
    {"back_to_back_seconds",
     [](auto& r, auto& c) { store(r.integer(1, 60), c.back_to_back_seconds); }},
    {"back_to_back_min_percent",
     [](auto& r, auto& c) { store(r.positive_number(100.0), c.back_to_back_min_percent); }},
    {"latency_median_ms",
     [](auto& r, auto& c) { store(r.positive_number(60'000.0), c.latency_median_ms); }},
    {"directions", read_directions},
    {"ip_versions", read_ip_versions},
}};

constexpr std::array<key_spec<y1564_config>, 7> y1564_keys{{
    {"frame_sizes",
     [](auto& r, auto& c) {
       store(read_increasing(r, min_frame, max_frame, "frame sizes",
                             "must list at least one frame size, e.g. [512, 1518]"),
             c.frame_sizes);
     }},
    {"steps_percent",
     [](auto& r, auto& c) {
       store(read_increasing(r, 1, 100, "steps",
                             "must list at least one step in % of the CIR, e.g. [25, 50, 75, 100]"),
             c.steps_percent);
     }},
    {"cir_mbps", [](auto& r, auto& c) { store(r.optional_limit(), c.cir_mbps); }},
    {"cir_percent", [](auto& r, auto& c) { store(r.positive_number(100.0), c.cir_percent); }},
    {"flr_percent",
     [](auto& r, auto& c) {
       const auto v = r.optional_limit();
       if (v && *v >= 100.0) {
         r.fail(fmt::format("must be below 100, got {}", *v));
         return;
       }
       store(v, c.flr_percent);
     }},
    {"ftd_ms", [](auto& r, auto& c) { store(r.positive_number(60'000.0), c.ftd_ms); }},
    {"fdv_ms", [](auto& r, auto& c) { store(r.positive_number(60'000.0), c.fdv_ms); }},
}};

constexpr std::int64_t max_message = 1 << 20;  // the hilperf extension's largest request/response
constexpr std::array<key_spec<netperf_config>, 10> netperf_keys{{
    {"request_size", [](auto& r, auto& n) { store(r.integer(1, max_message), n.request_size); }},
    {"response_size", [](auto& r, auto& n) { store(r.integer(1, max_message), n.response_size); }},
    {"confidence_level", [](auto& r, auto& n) { store(r.integer(50, 99), n.confidence_level); }},
    {"confidence_width_percent",
     [](auto& r, auto& n) { store(r.positive_number(100.0), n.confidence_width_percent); }},
    {"tcp_stream_mbps", [](auto& r, auto& n) { store(r.optional_limit(), n.tcp_stream_mbps); }},
    {"tcp_maerts_mbps", [](auto& r, auto& n) { store(r.optional_limit(), n.tcp_maerts_mbps); }},
    {"udp_stream_mbps", [](auto& r, auto& n) { store(r.optional_limit(), n.udp_stream_mbps); }},
    {"tcp_rr_per_second", [](auto& r, auto& n) { store(r.optional_limit(), n.tcp_rr_per_second); }},
    {"tcp_crr_per_second",
     [](auto& r, auto& n) { store(r.optional_limit(), n.tcp_crr_per_second); }},
    {"udp_rr_per_second", [](auto& r, auto& n) { store(r.optional_limit(), n.udp_rr_per_second); }},
}};

constexpr std::array<key_spec<latency_config>, 2> latency_keys{{
    {"load_streams", [](auto& r, auto& l) { store(r.integer(1, 64), l.load_streams); }},
    {"loaded_p99_ms", [](auto& r, auto& l) { store(r.positive_number(), l.loaded_p99_ms); }},
}};

constexpr std::array<key_spec<profile>, 2> duration_set_keys{{
    {"quick", [](auto& r, auto& p) { read_table(r, duration_keys, p.quick); }},
    {"nightly", [](auto& r, auto& p) { read_table(r, duration_keys, p.nightly); }},
}};

constexpr std::array<key_spec<profile>, 5> run_keys{{
    {"durations",
     [](auto& r, auto& p) { store(r.choice(duration_set_names), p.duration_set_name); }},
    {"iterations", [](auto& r, auto& p) { store(r.integer(1, 100), p.iterations); }},
    {"quiet_cpu_pressure_percent",
     [](auto& r, auto& p) { store(r.positive_number(100.0), p.quiet_cpu_pressure_percent); }},
    {"quiet_other_cpu_percent",
     [](auto& r, auto& p) { store(r.positive_number(100000.0), p.quiet_other_cpu_percent); }},
    {"max_attempts", [](auto& r, auto& p) { store(r.integer(1, 10), p.max_attempts); }},
}};

// [sim] is validated in every mode (a typo is a typo), though only sim mode uses it.
constexpr std::array<key_spec<sim_config>, 5> sim_keys{{
    {"bench",
     [](auto& r, auto& s) {
       store(r.string_where(is_bench_name, "1 to 8 characters from a-z and 0-9"), s.bench);
     }},
    {"peer_interface",
     [](auto& r, auto& s) {
       store(r.string_where(is_interface_name, interface_rule), s.peer_interface);
     }},
    {"shape_mbit", [](auto& r, auto& s) { store(r.integer(0, 100000), s.shape_mbit); }},
    {"peer_mtu", [](auto& r, auto& s) { store(r.integer(min_mtu, max_mtu), s.peer_mtu); }},
    {"frame_port_mbit", [](auto& r, auto& s) { store(r.integer(0, 100000), s.frame_port_mbit); }},
}};

constexpr std::array<key_spec<history_config>, 3> history_keys{{
    {"dir", [](auto& r, auto& h) { store(r.string(), h.dir); }},
    {"tolerance_percent",
     [](auto& r, auto& h) { store(r.positive_number(100.0), h.tolerance_percent); }},
    {"baseline_runs", [](auto& r, auto& h) { store(r.integer(1, 1000), h.baseline_runs); }},
}};

constexpr std::array<key_spec<profile>, 13> top_keys{{
    {"dut", [](auto& r, auto& p) { read_table(r, dut_keys, p.dut); }},
    {"peer", [](auto& r, auto& p) { read_table(r, peer_keys, p.peer); }},
    {"link", [](auto& r, auto& p) { read_table(r, link_keys, p.link); }},
    {"thresholds", [](auto& r, auto& p) { read_table(r, threshold_keys, p.limits); }},
    {"mtu", [](auto& r, auto& p) { read_table(r, mtu_keys, p.mtu); }},
    {"durations", [](auto& r, auto& p) { read_table(r, duration_set_keys, p); }},
    {"run", [](auto& r, auto& p) { read_table(r, run_keys, p); }},
    {"sim", [](auto& r, auto& p) { read_table(r, sim_keys, p.sim); }},
    {"netperf", [](auto& r, auto& p) { read_table(r, netperf_keys, p.netperf); }},
    {"latency", [](auto& r, auto& p) { read_table(r, latency_keys, p.latency); }},
    {"rfc2544", [](auto& r, auto& p) { read_table(r, rfc2544_keys, p.rfc2544); }},
    {"y1564", [](auto& r, auto& p) { read_table(r, y1564_keys, p.y1564); }},
    {"history", [](auto& r, auto& p) { read_table(r, history_keys, p.history); }},
}};

// Keys without which no check can run, and an example of each.
void check_required(const profile& p, pass_state& state) {
  constexpr std::array<std::pair<std::string_view, std::string_view>, 3> required{{
      {"dut.ipv4", "ipv4 = \"192.168.1.10/24\" under [dut]"},
      {"peer.ipv4", "ipv4 = \"192.168.1.195\" under [peer]"},
      {"peer.mode", "mode = \"sim\", \"ssh\" or \"external\" under [peer]"},
  }};
  for (const auto& [key, example] : required) {
    if (!state.seen(key)) {
      state.report(std::string(key), 0, fmt::format("missing required key; add e.g. {}", example));
    }
  }
  const std::string_view target = "peer.ssh_target";
  if (state.valid("peer.mode") && p.peer.mode == peer_mode::ssh && p.peer.ssh_target.empty() &&
      !state.rejected(target)) {
    state.report(std::string(target), state.line_of(target),
                 "required when peer.mode is \"ssh\": the user@host the peer is started on");
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

// Address syntax, and in sim mode the benchmarking ranges and IPv6 on both ends or neither.
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

// HILPERF_DURATIONS=quick|nightly overrides run.durations (see the top of this file).
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

// The TOML document, or a profile_error carrying the syntax error's line.
toml::table parse_toml(std::string_view text, std::string_view source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& error) {
    throw profile_error(std::string(source),
                        {{"(syntax)", static_cast<int>(error.source().begin.line),
                          std::string(error.description())}});
  }
}

// "<file> does not exist; profiles in <dir>: a.toml, b.toml".
std::string missing_file_message(const std::filesystem::path& file) {
  const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : ".";
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    return fmt::format("{} does not exist, nor does the directory {}", file.string(), dir.string());
  }
  std::vector<std::string> names;
  for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().extension() == ".toml") names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  if (names.empty()) {
    return fmt::format("{} does not exist, and {} holds no *.toml profiles", file.string(),
                       dir.string());
  }
  return fmt::format("{} does not exist; profiles in {}: {}", file.string(), dir.string(),
                     fmt::join(names, ", "));
}

[[noreturn]] void throw_file_problem(const std::filesystem::path& file, std::string message) {
  throw profile_error(file.string(), {{"(file)", 0, std::move(message)}});
}

}  // namespace

bool is_bench_name(std::string_view name) {
  return !name.empty() && name.size() <= 8 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  });
}

profile parse_profile(std::string_view toml_text, std::string_view source) {
  const toml::table root = parse_toml(toml_text, source);
  profile result;
  result.source = std::string(source);
  pass_state state;
  read_keys(root, "", top_keys, result, state);
  check_required(result, state);
  check_addresses(result, state);
  apply_durations_env(result, state);
  std::vector<problem> problems = state.sorted_problems();
  if (!problems.empty()) throw profile_error(result.source, std::move(problems));
  return result;
}

profile load_profile(const std::filesystem::path& file) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(file, error);
  if (!std::filesystem::exists(status)) throw_file_problem(file, missing_file_message(file));
  if (std::filesystem::is_directory(status)) {
    throw_file_problem(file, fmt::format("{} is a directory, not a profile file", file.string()));
  }
  std::ifstream in(file, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.is_open() || in.bad()) {
    throw_file_problem(file,
                       fmt::format("{} cannot be read (check its permissions)", file.string()));
  }
  return parse_profile(text, file.string());
}

}  // namespace hil::profile
