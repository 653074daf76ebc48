// iperf3's wire protocol, as spoken by stock iperf3 3.12 (Debian bookworm) and later: pure
// functions over buffers, no sockets. The facts are in docs/iperf3-protocol.md §2–§6 and §12.
//
//   client                                               server (:5201, TCP)
//     | --- TCP connect (control), TCP_NODELAY ------------> |
//     | --- cookie: 36 x [a-z2-7] + NUL (37 bytes) --------> |
//     | <-------------------------- 0x09 PARAM_EXCHANGE ---- |
//     | --- u32 BE length + parameter JSON (<= 8 KiB) -----> |   params.hpp
//     | <-------------------------- 0x0A CREATE_STREAMS ---- |
//     | === per stream, one after the other: =============== |
//     |   TCP: connect + the same 37-byte cookie ----------> |
//     |   UDP: hello 39 38 37 36 -------------------------> |
//     |        <------------------------ reply 36 37 38 39 |
//     | <-------------- 0x01 TEST_START, 0x02 TEST_RUNNING - |
//     | ~~~ data: UDP datagrams start with udp_header ~~~~~~ |
//     | --- 0x04 TEST_END ---------------------------------> |   server closes data sockets
//     | <------------------------ 0x0D EXCHANGE_RESULTS ---- |
//     | --- u32 BE length + client results JSON -----------> |   exchange.hpp
//     | <----------- u32 BE length + server results JSON --- |
//     | <------------------------- 0x0E DISPLAY_RESULTS ---- |
//     | --- 0x10 IPERF_DONE, close ------------------------> |
//
//   Out of band: 0xFF ACCESS_DENIED (server busy, then close); 0xFE SERVER_ERROR followed by
//   int32 BE i_errno and int32 BE errno; 0x0B SERVER_TERMINATE / 0x0C CLIENT_TERMINATE (signal).
//
// Errors: malformed input throws std::system_error with std::errc::protocol_error and a message
// that says what was wrong (hil/sys/error.hpp policy); "not yet complete" is not an error.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace hil::iperf3 {

// ---- control states: one signed byte on the control connection ---------------------------

enum class state : std::int8_t {
  test_start = 1,
  test_running = 2,
  test_end = 4,
  param_exchange = 9,
  create_streams = 10,
  server_terminate = 11,
  client_terminate = 12,
  exchange_results = 13,
  display_results = 14,
  iperf_done = 16,
  access_denied = -1,
  server_error = -2,
};

// iperf3's name of s ("TEST_START", "ACCESS_DENIED", ...); "UNKNOWN" for a value not listed.
[[nodiscard]] std::string_view state_name(state s);

// The state a received byte stands for; nullopt for bytes iperf3 never sends (0, 3, 5..8, 15).
[[nodiscard]] std::optional<state> state_from_byte(std::uint8_t b);

// The byte to write for s (ACCESS_DENIED is 0xFF, SERVER_ERROR 0xFE).
[[nodiscard]] constexpr std::uint8_t state_to_byte(state s) {
  return static_cast<std::uint8_t>(static_cast<std::int8_t>(s));
}

// ---- cookie: identifies a test's control and TCP data connections ------------------------

inline constexpr std::size_t cookie_size = 37;

// A cookie as iperf3 writes it: 36 chars of "abcdefghijklmnopqrstuvwxyz234567" then '\0'.
// Deterministic in seed; callers seed it from std::random_device and report the cookie itself
// (-J start.cookie, the case log), which is what identifies the test on both ends.
[[nodiscard]] std::string make_cookie(std::uint64_t seed);

// True when bytes is exactly a cookie: 37 bytes, 36 alphabet chars, then NUL.
[[nodiscard]] bool is_valid_cookie(std::string_view bytes);

// ---- length-prefixed JSON messages (parameters, results) ---------------------------------

// iperf3 3.18+ refuses larger parameter messages (MAX_PARAMS_JSON_STRING).
inline constexpr std::size_t max_param_json = std::size_t{8} * 1024;
// Ours: iperf3 has no limit on results, which may carry the server's whole -J output.
inline constexpr std::size_t max_results_json = std::size_t{4} * 1024 * 1024;

// The frame for json: 4-byte big-endian length, then the bytes (no NUL). Throws
// std::invalid_argument for an empty message or one longer than 2^32 - 1 bytes.
[[nodiscard]] std::string encode_frame(std::string_view json);

// Reassembles one length-prefixed message from reads of any size. Limits are checked on the
// length header, before the body is allocated.
class frame_decoder {
 public:
  // max_len bounds the announced length; what names the message in errors
  // ("parameter message", "results message").
  explicit frame_decoder(std::size_t max_len, std::string_view what = "JSON message");

  // Consumes at most the bytes that complete the current frame and returns how many it took
  // (0 once complete() until take()). Throws protocol_error, before allocating, when the announced
  // length is 0 or above max_len; the decoder is then reset and the connection should be dropped.
  std::size_t feed(const char* data, std::size_t n);

  // True when a whole message is buffered and take() may be called.
  [[nodiscard]] bool complete() const { return complete_; }

  // How many more bytes complete the header or body, so a blocking reader never over-reads;
  // 0 when complete().
  [[nodiscard]] std::size_t bytes_needed() const;

  // The message body; resets for the next frame. Throws std::logic_error unless complete().
  std::string take();

 private:
  void reset();

  std::size_t max_len_;
  std::string what_;
  std::array<std::uint8_t, 4> header_{};
  std::size_t header_have_ = 0;
  std::size_t body_len_ = 0;
  std::string body_;
  bool complete_ = false;
};

// ---- UDP data streams ---------------------------------------------------------------------

// The header at the start of every UDP datagram: sender CLOCK_MONOTONIC time and sequence
// number (first packet = 1).
struct udp_header {
  std::uint32_t sec = 0;
  std::uint32_t usec = 0;
  std::uint64_t seq = 0;
};

// Header bytes: 12 with 32-bit counters, 16 with udp_counters_64bit.
[[nodiscard]] inline constexpr std::size_t udp_header_size(bool counters_64bit) {
  return counters_64bit ? 16 : 12;
}

// Writes h big-endian at the start of out; with 32-bit counters seq wraps modulo 2^32 as in
// iperf3. Throws std::system_error (no_buffer_space) when out is shorter than the header.
void encode_udp_header(std::span<std::uint8_t> out, const udp_header& h, bool counters_64bit);

// The header at the start of in; nullopt when in is shorter than the header.
[[nodiscard]] std::optional<udp_header> decode_udp_header(std::span<const std::uint8_t> in,
                                                          bool counters_64bit);

// Client hello ("9876") and the server replies it accepts ("6789", and the pre-3.17 legacy one).
inline constexpr std::array<std::uint8_t, 4> udp_connect_msg = {0x39, 0x38, 0x37, 0x36};
inline constexpr std::array<std::uint8_t, 4> udp_connect_reply = {0x36, 0x37, 0x38, 0x39};
inline constexpr std::array<std::uint8_t, 4> legacy_udp_connect_reply = {0xb1, 0x68, 0xde, 0x3a};

// True when datagram is exactly 4 bytes and one of the two replies.
[[nodiscard]] bool is_udp_connect_reply(std::span<const std::uint8_t> datagram);

// ---- SERVER_ERROR payload -----------------------------------------------------------------

// The 8 bytes after a SERVER_ERROR state byte: iperf3's i_errno and the server's errno.
struct server_error {
  std::int32_t i_errno = 0;
  std::int32_t sys_errno = 0;
};

// The i_errno values our server sends (iperf3's src/iperf_api.h), declared here only.
inline constexpr std::int32_t ie_num_streams = 6;                // IENUMSTREAMS
inline constexpr std::int32_t ie_total_rate = 27;                // IETOTALRATE
inline constexpr std::int32_t ie_server_auth_users = 35;         // IESERVERAUTHUSERS
inline constexpr std::int32_t ie_max_duration_exceeded = 37;     // IEMAXSERVERTESTDURATIONEXCEEDED
inline constexpr std::int32_t ie_recv_params = 114;              // IERECVPARAMS
inline constexpr std::int32_t ie_auth_test = 142;                // IEAUTHTEST
inline constexpr std::int32_t ie_server_duration_expired = 160;  // IESERVERTESTDURATIONEXPIRED

// Both int32 from big-endian bytes.
[[nodiscard]] server_error decode_server_error(std::span<const std::uint8_t, 8> bytes);

// The 8 bytes to send after the SERVER_ERROR state byte.
[[nodiscard]] std::array<std::uint8_t, 8> encode_server_error(const server_error& e);

// iperf3's text for e.i_errno ("iperf3 error <n>" when unknown), then ": strerror(sys_errno)"
// when sys_errno != 0.
[[nodiscard]] std::string describe_server_error(const server_error& e);

// ---- internal: typed reads of iperf3's JSON messages, shared by params.cpp and exchange.cpp --

namespace detail {

// Parses text (at most max_len bytes) as a JSON object; what names the message in errors.
[[nodiscard]] nlohmann::json parse_json_object(std::string_view text, std::size_t max_len,
                                               std::string_view what);

// obj[key] as an integer; nullopt when absent. Values >= 2^63 read as -1 (iperf3 3.12/3.13 print
// -1 as 18446744073709551615). Throws protocol_error, naming where and key, for a non-number or
// a fraction.
[[nodiscard]] std::optional<std::int64_t> get_int(const nlohmann::json& obj, const char* key,
                                                  std::string_view where);

// obj[key] as a double; nullopt when absent; throws protocol_error for a non-number.
[[nodiscard]] std::optional<double> get_double(const nlohmann::json& obj, const char* key,
                                               std::string_view where);

// obj[key] as a bool; nullopt when absent; throws protocol_error for a non-boolean.
[[nodiscard]] std::optional<bool> get_bool(const nlohmann::json& obj, const char* key,
                                           std::string_view where);

// obj[key] as a string; nullopt when absent; throws protocol_error for a non-string.
[[nodiscard]] std::optional<std::string> get_string(const nlohmann::json& obj, const char* key,
                                                    std::string_view where);

// Throws std::system_error(protocol_error) with message.
[[noreturn]] void throw_protocol_error(const std::string& message);

}  // namespace detail

}  // namespace hil::iperf3
