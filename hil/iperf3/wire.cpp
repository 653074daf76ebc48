#include "hil/iperf3/wire.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "hil/sys/json_depth.hpp"

namespace hil::iperf3 {

namespace {

constexpr std::string_view cookie_alphabet = "abcdefghijklmnopqrstuvwxyz234567";

void put_be32(std::uint8_t* out, std::uint32_t v) {
  out[0] = static_cast<std::uint8_t>(v >> 24);
  out[1] = static_cast<std::uint8_t>(v >> 16);
  out[2] = static_cast<std::uint8_t>(v >> 8);
  out[3] = static_cast<std::uint8_t>(v);
}

std::uint32_t get_be32(const std::uint8_t* in) {
  return (std::uint32_t{in[0]} << 24) | (std::uint32_t{in[1]} << 16) | (std::uint32_t{in[2]} << 8) |
         std::uint32_t{in[3]};
}

// iperf3's i_errno texts (src/iperf_error.c, HEAD wording; the numbers are the same in 3.12).
// Format arguments are filled in with the limits of src/iperf_api.h.
constexpr std::pair<int, std::string_view> iperf_error_texts[] = {
    {0, "no error"},
    {1, "cannot be both server and client"},
    {2, "must either be a client (-c) or server (-s)"},
    {3, "some option you are trying to set is server only"},
    {4, "some option you are trying to set is client only"},
    {5, "test duration valid values are 0 to 86400 seconds"},
    {6, "invalid number of parallel streams (min = 1, max = 128)"},
    {7, "block size too large (maximum = 1048576 bytes)"},
    {8, "socket buffer size too large (maximum = 536870912 bytes)"},
    {9, "invalid report interval (min = 0.1, max = 60 seconds)"},
    {10, "TCP MSS too large (maximum = 32767 bytes)"},
    {11, "this OS does not support sendfile"},
    {12, "bogus value for --omit (maximum = 600 seconds)"},
    {13, "an option you are trying to set is not implemented yet"},
    {14, "unable to open -F file"},
    {15, "invalid burst count (maximum = 1000)"},
    {16, "only one test end condition (-t, -n, -k) may be specified"},
    {17, "unable to open log file"},
    {18, "no SCTP support available"},
    {19, "--bind must be specified to use --cport"},
    {20, "block size invalid (minimum = 16 bytes, maximum = 65507 bytes)"},
    {21, "bad TOS value (must be between 0 and 255 inclusive)"},
    {22, "you must specify a username, password, and path to a valid RSA public key"},
    {23, "you must specify a path to a valid RSA private key and a user credential file"},
    {24, "bad format specifier (valid formats are in the set [kmgtKMGT])"},
    {25, "cannot be both reverse and bidirectional"},
    {26, "port number must be between 1 and 65535 inclusive"},
    {27, "total required bandwidth is larger than server limit"},
    {28, "invalid time interval for calculating average data rate"},
    {29, "skew threshold must be a positive number"},
    {30, "idle timeout parameter is not positive or larger than allowed limit"},
    {31, "receive timeout value is incorrect or not in range"},
    {32, "client receive timeout is valid only in receiving mode"},
    {33, "send timeout value is incorrect or not in range"},
    {34, "cannot transfer file using UDP"},
    {35, "cannot access authorized users file"},
    {36,
     "control connection Keepalive period should be larger than the full retry period "
     "(interval * count)"},
    {37, "client's requested duration exceeds the server's maximum permitted limit"},
    {38, "invalid unit value or suffix"},
    {39, "this OS does not support --skip-rx-copy"},
    {40, "bad DSCP value"},
    {100, "unable to create a new test"},
    {101, "test initialization failed"},
    {102, "unable to start listener for connections"},
    {103,
     "unable to connect to server - server may have stopped running or use a different port, "
     "firewall issue, etc."},
    {104, "unable to accept connection from client"},
    {105, "unable to send cookie to server"},
    {106, "unable to receive cookie at server"},
    {107, "unable to write to the control socket"},
    {108, "unable to read from the control socket"},
    {109, "control socket has closed unexpectedly"},
    {110, "received an unknown control message (ensure other side is iperf3 and not iperf)"},
    {111,
     "unable to send control message - port may not be available, the other side may have "
     "stopped running, etc."},
    {112,
     "unable to receive control message - port may not be available, the other side may have "
     "stopped running, etc."},
    {113, "unable to send parameters to server"},
    {114, "unable to receive parameters from client"},
    {115, "unable to package results"},
    {116, "unable to send results"},
    {117, "unable to receive results"},
    {118, "select failed"},
    {119, "the client has terminated"},
    {120, "the server has terminated"},
    {121, "the server is busy running a test. try again later"},
    {122, "unable to set TCP/SCTP NODELAY"},
    {123, "unable to set TCP/SCTP MSS"},
    {124, "unable to set socket buffer size"},
    {125, "unable to set IP TOS"},
    {126, "unable to set IPv6 traffic class"},
    {127, "unable to set IPv6 flow label"},
    {128, "unable to reuse address on socket"},
    {129, "unable to set socket to non-blocking"},
    {130, "unable to set socket window size"},
    {131, "protocol does not exist"},
    {132, "unable to set CPU affinity"},
    {133, "unable to become a daemon"},
    {134,
     "unable to set TCP_CONGESTION: Supplied congestion control algorithm not supported on this "
     "host"},
    {135, "unable to write PID file"},
    {136, "Unable to set/reset IPV6_V6ONLY"},
    {137, "unable to set SCTP_DISABLE_FRAGMENTS"},
    {138, "unable to set SCTP_INIT num of SCTP streams"},
    {139, "unable to process sctp_bindx() parameters"},
    {140, "unable to set socket pacing"},
    {141, "socket buffer size not set correctly"},
    {142, "test authorization failed"},
    {143, "Unable to bind-to-device (check perror, maybe permissions?)"},
    {144, "idle timeout for receiving data"},
    {145, "unable to set IP Do-Not-Fragment flag"},
    {146, "`<ip>%<dev>` is not supported as system does not support bind to device"},
    {147,
     "host device name (ip%<dev>) is supported (and required) only for IPv6 link-local address"},
    {148, "unable to set TCP USER_TIMEOUT"},
    {150, "unable to create thread"},
    {151, "unable to cancel thread"},
    {152, "unable to join thread"},
    {153, "unable to create thread attributes"},
    {154, "unable to destroy thread attributes"},
    {155, "unable to set socket keepalive (SO_KEEPALIVE) option"},
    {156, "unable to set socket keepalive TCP period (TCP_KEEPIDLE) option"},
    {157, "unable to set/get socket keepalive TCP retry interval (TCP_KEEPINTVL) option"},
    {158, "unable to set/get socket keepalive TCP number of retries (TCP_KEEPCNT) option"},
    {159, "unable to change mask of blocked signals"},
    {160, "server test duration expired"},
    {200, "unable to create a new stream"},
    {201, "unable to initialize stream"},
    {202, "unable to start stream listener"},
    {203, "unable to connect stream"},
    {204, "unable to accept stream connection"},
    {205, "unable to write to stream socket"},
    {206, "unable to read from stream socket"},
    {207, "stream socket has closed unexpectedly"},
    {208, "stream has an invalid id"},
    {300, "unable to create new timer"},
    {301, "unable to update timer"},
};

}  // namespace

// ---- control states -------------------------------------------------------------------------

std::string_view state_name(state s) {
  switch (s) {
    case state::test_start:
      return "TEST_START";
    case state::test_running:
      return "TEST_RUNNING";
    case state::test_end:
      return "TEST_END";
    case state::param_exchange:
      return "PARAM_EXCHANGE";
    case state::create_streams:
      return "CREATE_STREAMS";
    case state::server_terminate:
      return "SERVER_TERMINATE";
    case state::client_terminate:
      return "CLIENT_TERMINATE";
    case state::exchange_results:
      return "EXCHANGE_RESULTS";
    case state::display_results:
      return "DISPLAY_RESULTS";
    case state::iperf_done:
      return "IPERF_DONE";
    case state::access_denied:
      return "ACCESS_DENIED";
    case state::server_error:
      return "SERVER_ERROR";
  }
  return "UNKNOWN";
}

std::optional<state> state_from_byte(std::uint8_t b) {
  const auto s = static_cast<state>(static_cast<std::int8_t>(b));
  // Exactly the enumerators name a value that appears on the wire.
  if (state_name(s) == "UNKNOWN") return std::nullopt;
  return s;
}

// ---- cookie ---------------------------------------------------------------------------------

std::string make_cookie(std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::string cookie(cookie_size, '\0');
  for (std::size_t i = 0; i + 1 < cookie_size; ++i) {
    cookie[i] = cookie_alphabet[engine() % cookie_alphabet.size()];
  }
  return cookie;
}

bool is_valid_cookie(std::string_view bytes) {
  if (bytes.size() != cookie_size || bytes.back() != '\0') return false;
  return std::all_of(bytes.begin(), bytes.end() - 1,
                     [](char c) { return cookie_alphabet.find(c) != std::string_view::npos; });
}

// ---- framing --------------------------------------------------------------------------------

std::string encode_frame(std::string_view json) {
  if (json.empty()) throw std::invalid_argument("cannot frame an empty JSON message");
  if (json.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument(
        fmt::format("JSON message of {} bytes does not fit a 32-bit length", json.size()));
  }
  std::string frame(4 + json.size(), '\0');
  std::array<std::uint8_t, 4> len{};
  put_be32(len.data(), static_cast<std::uint32_t>(json.size()));
  std::copy(len.begin(), len.end(), frame.begin());
  std::copy(json.begin(), json.end(), frame.begin() + 4);
  return frame;
}

frame_decoder::frame_decoder(std::size_t max_len, std::string_view what)
    : max_len_(max_len), what_(what) {}

std::size_t frame_decoder::feed(const char* data, std::size_t n) {
  std::size_t used = 0;
  if (complete_) return 0;
  while (header_have_ < header_.size() && used < n) {
    header_[header_have_++] = static_cast<std::uint8_t>(data[used++]);
    if (header_have_ < header_.size()) continue;
    const std::size_t announced = get_be32(header_.data());
    // Validate before allocating: a hostile or confused peer must not make us reserve 4 GiB.
    if (announced == 0) {
      reset();
      detail::throw_protocol_error(fmt::format("empty {} (announced length 0)", what_));
    }
    if (announced > max_len_) {
      reset();
      detail::throw_protocol_error(
          fmt::format("{} of {} bytes exceeds the {}-byte limit", what_, announced, max_len_));
    }
    body_len_ = announced;
    body_.reserve(body_len_);
  }
  if (header_have_ < header_.size()) return used;
  const std::size_t take_now = std::min(n - used, body_len_ - body_.size());
  body_.append(data + used, take_now);
  used += take_now;
  complete_ = body_.size() == body_len_;
  return used;
}

std::size_t frame_decoder::bytes_needed() const {
  if (complete_) return 0;
  if (header_have_ < header_.size()) return header_.size() - header_have_;
  return body_len_ - body_.size();
}

std::string frame_decoder::take() {
  if (!complete_) {
    throw std::logic_error(
        fmt::format("frame_decoder::take() called before the {} is complete", what_));
  }
  std::string body = std::move(body_);
  reset();
  return body;
}

void frame_decoder::reset() {
  header_have_ = 0;
  body_len_ = 0;
  body_ = std::string();
  complete_ = false;
}

// ---- UDP ------------------------------------------------------------------------------------

void encode_udp_header(std::span<std::uint8_t> out, const udp_header& h, bool counters_64bit) {
  const std::size_t need = udp_header_size(counters_64bit);
  if (out.size() < need) {
    throw std::system_error(
        std::make_error_code(std::errc::no_buffer_space),
        fmt::format("a UDP datagram of {} bytes cannot hold the {}-byte iperf3 header; use a "
                    "block length of at least 16 bytes",
                    out.size(), need));
  }
  put_be32(out.data(), h.sec);
  put_be32(out.data() + 4, h.usec);
  if (counters_64bit) {
    put_be32(out.data() + 8, static_cast<std::uint32_t>(h.seq >> 32));
    put_be32(out.data() + 12, static_cast<std::uint32_t>(h.seq));
  } else {
    put_be32(out.data() + 8, static_cast<std::uint32_t>(h.seq));  // wraps as iperf3's does
  }
}

std::optional<udp_header> decode_udp_header(std::span<const std::uint8_t> in, bool counters_64bit) {
  if (in.size() < udp_header_size(counters_64bit)) return std::nullopt;
  udp_header h;
  h.sec = get_be32(in.data());
  h.usec = get_be32(in.data() + 4);
  h.seq = counters_64bit ? (std::uint64_t{get_be32(in.data() + 8)} << 32) | get_be32(in.data() + 12)
                         : get_be32(in.data() + 8);
  return h;
}

bool is_udp_connect_reply(std::span<const std::uint8_t> datagram) {
  if (datagram.size() != udp_connect_reply.size()) return false;
  return std::equal(datagram.begin(), datagram.end(), udp_connect_reply.begin()) ||
         std::equal(datagram.begin(), datagram.end(), legacy_udp_connect_reply.begin());
}

// ---- SERVER_ERROR ---------------------------------------------------------------------------

server_error decode_server_error(std::span<const std::uint8_t, 8> bytes) {
  return {static_cast<std::int32_t>(get_be32(bytes.data())),
          static_cast<std::int32_t>(get_be32(bytes.data() + 4))};
}

std::array<std::uint8_t, 8> encode_server_error(const server_error& e) {
  std::array<std::uint8_t, 8> out{};
  put_be32(out.data(), static_cast<std::uint32_t>(e.i_errno));
  put_be32(out.data() + 4, static_cast<std::uint32_t>(e.sys_errno));
  return out;
}

std::string describe_server_error(const server_error& e) {
  const auto* it = std::find_if(std::begin(iperf_error_texts), std::end(iperf_error_texts),
                                [&](const auto& entry) { return entry.first == e.i_errno; });
  std::string text = it != std::end(iperf_error_texts) ? std::string(it->second)
                                                       : fmt::format("iperf3 error {}", e.i_errno);
  if (e.sys_errno != 0) {
    // system_category().message() is strerror() without its thread-safety problem.
    text += ": " + std::system_category().message(e.sys_errno);
  }
  return text;
}

// ---- typed JSON reads -----------------------------------------------------------------------

namespace detail {

void throw_protocol_error(const std::string& message) {
  throw std::system_error(std::make_error_code(std::errc::protocol_error), message);
}

nlohmann::json parse_json_object(std::string_view text, std::size_t max_len,
                                 std::string_view what) {
  if (text.empty()) throw_protocol_error(fmt::format("empty {}", what));
  if (text.size() > max_len) {
    throw_protocol_error(
        fmt::format("{} of {} bytes exceeds the {}-byte limit", what, text.size(), max_len));
  }
  if (sys::json_too_deep(text)) {
    throw_protocol_error(
        fmt::format("{} nests deeper than {} levels", what, sys::json_depth_limit));
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw_protocol_error(fmt::format("{} is not valid JSON: {}", what, e.what()));
  }
  if (!j.is_object()) {
    throw_protocol_error(fmt::format("{} must be a JSON object, got {}", what, j.type_name()));
  }
  return j;
}

namespace {

// A value as an error text shows it: a scalar as written (cut at 40 characters), a container by
// its size only, so no text is built by walking it.
std::string brief(const nlohmann::json& v) {
  if (v.is_array()) return fmt::format("of {} elements", v.size());
  if (v.is_object()) return fmt::format("of {} members", v.size());
  std::string shown = v.dump();
  if (shown.size() > 40) shown = shown.substr(0, 37) + "...";
  return shown;
}

[[noreturn]] void throw_wrong_type(const nlohmann::json& v, const char* key, std::string_view where,
                                   std::string_view expected) {
  const std::string shown = brief(v);
  throw_protocol_error(fmt::format("{} \"{}\" must be a JSON {}, got {} {}", where, key, expected,
                                   v.type_name(), shown));
}

}  // namespace

std::optional<std::int64_t> get_int(const nlohmann::json& obj, const char* key,
                                    std::string_view where) {
  const auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  constexpr double two_pow_63 = 9223372036854775808.0;
  if (it->is_number_unsigned()) {
    const auto u = it->get<std::uint64_t>();
    // 3.12/3.13 print -1 through %PRIu64, so 2^64 - 1 (and anything >= 2^63) means -1.
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return -1;
    return static_cast<std::int64_t>(u);
  }
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (it->is_number_float()) {
    const double d = it->get<double>();
    if (d >= two_pow_63) return -1;  // 2^64 - 1 written past nlohmann's uint64 range
    if (!std::isfinite(d) || d != std::trunc(d) || d < -two_pow_63) {
      throw_wrong_type(*it, key, where, "integer");
    }
    return static_cast<std::int64_t>(d);
  }
  throw_wrong_type(*it, key, where, "number");
}

std::optional<double> get_double(const nlohmann::json& obj, const char* key,
                                 std::string_view where) {
  const auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (!it->is_number()) throw_wrong_type(*it, key, where, "number");
  return it->get<double>();
}

std::optional<bool> get_bool(const nlohmann::json& obj, const char* key, std::string_view where) {
  const auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (!it->is_boolean()) throw_wrong_type(*it, key, where, "boolean (true)");
  return it->get<bool>();
}

std::optional<std::string> get_string(const nlohmann::json& obj, const char* key,
                                      std::string_view where) {
  const auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (!it->is_string()) throw_wrong_type(*it, key, where, "string");
  return it->get<std::string>();
}

}  // namespace detail

}  // namespace hil::iperf3
