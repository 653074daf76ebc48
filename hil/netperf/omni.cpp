#include "hil/netperf/omni.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <string_view>
#include <system_error>

namespace hil::netperf {
namespace {

using measure::workload;

// Request flags (netperf's nettest_omni.h).
constexpr std::uint32_t flag_no_delay = 0x1;
constexpr std::uint32_t flag_connect_test = 0x4;      // TCP_CRR: a connection per transaction
constexpr std::uint32_t flag_routing_allowed = 0x20;  // clear: netserver sets SO_DONTROUTE

// direction: what netserver does.
constexpr std::uint32_t netserver_sends = 0x2;
constexpr std::uint32_t netserver_receives = 0x4;

// Offsets from the start of the message.
constexpr std::size_t type_at = 0;
constexpr std::size_t errno_at = 4;
constexpr std::size_t data_at = 8;
// The results' congestion-control name: char[16] after 27 words and 160 bytes of other names.
constexpr std::size_t results_congestion_at = data_at + 268;
constexpr std::size_t congestion_size = 16;

void put_be32(message& m, std::size_t at, std::uint32_t v) {
  m[at] = static_cast<std::uint8_t>(v >> 24);
  m[at + 1] = static_cast<std::uint8_t>(v >> 16);
  m[at + 2] = static_cast<std::uint8_t>(v >> 8);
  m[at + 3] = static_cast<std::uint8_t>(v);
}

void put_i32(message& m, std::size_t at, std::int32_t v) {
  put_be32(m, at, static_cast<std::uint32_t>(v));
}

std::uint32_t be32(std::span<const std::uint8_t> m, std::size_t at) {
  return (std::uint32_t{m[at]} << 24) | (std::uint32_t{m[at + 1]} << 16) |
         (std::uint32_t{m[at + 2]} << 8) | std::uint32_t{m[at + 3]};
}

std::int32_t i32(std::span<const std::uint8_t> m, std::size_t at) {
  return static_cast<std::int32_t>(be32(m, at));
}

// Word i of the test data, as netperf numbers them.
std::uint32_t word(std::span<const std::uint8_t> m, std::size_t i) {
  return be32(m, data_at + 4 * i);
}

[[noreturn]] void malformed(const std::string& what) {
  throw std::system_error(std::make_error_code(std::errc::protocol_error), what);
}

[[noreturn]] void invalid(const std::string& what) {
  throw std::system_error(std::make_error_code(std::errc::invalid_argument), what);
}

// The checks every answer from netserver passes first: its size, then its serv_errno. what names
// the message, when says what a serv_errno there stands for.
void check_answer(std::span<const std::uint8_t> msg, std::string_view what, std::string_view when) {
  if (msg.size() != message_size) {
    malformed(fmt::format("netserver's {} is {} bytes, not {}: not netperf 2.x's control message",
                          what, msg.size(), message_size));
  }
  if (const std::int32_t e = i32(msg, errno_at); e != 0) {
    malformed(fmt::format("netserver refused the test: {}{}", describe_serv_errno(e), when));
  }
}

// What netserver does, its socket type and protocol, and the flags netperf 2.7 sends, per test.
struct test_shape {
  std::uint32_t direction;
  std::uint32_t socket_type;  // netperf's NST_STREAM 1, NST_DGRAM 2
  std::uint32_t protocol;     // IPPROTO_*
  std::uint32_t flags;
  bool rr;
};

test_shape shape_of(workload w) {
  const std::uint32_t both = netserver_sends | netserver_receives;
  switch (w) {
    case workload::tcp_stream:
      return {netserver_receives, 1, 6, flag_routing_allowed, false};
    case workload::tcp_maerts:
      return {netserver_sends, 1, 6, flag_routing_allowed, false};
    case workload::udp_stream:
      // netperf clears ROUTING_ALLOWED for one-way UDP only; netserver then only receives.
      return {netserver_receives, 2, 17, 0, false};
    case workload::tcp_rr:
      return {both, 1, 6, flag_routing_allowed, true};
    case workload::tcp_crr:
      return {both, 1, 6, flag_routing_allowed | flag_connect_test, true};
    case workload::udp_rr:
      return {both, 2, 17, flag_routing_allowed, true};
  }
  invalid("not one of netperf's six tests");
}

}  // namespace

message encode_request(const omni_request& r) {
  const test_shape t = shape_of(r.kind);
  const auto name = measure::workload_name(r.kind);
  if (r.test_length_s <= 0) {
    invalid(fmt::format("{}: test length {} s: netserver needs a positive whole number of seconds",
                        name, r.test_length_s));
  }
  if (r.family != 4 && r.family != 6) {
    invalid(fmt::format("{}: address family {} (4 or 6)", name, r.family));
  }
  if (t.rr && (r.request_size < 1 || r.response_size < 1)) {
    invalid(fmt::format("{}: request and response sizes must be at least 1 byte (got {} and {})",
                        name, r.request_size, r.response_size));
  }
  message m{};
  put_i32(m, type_at, do_omni);
  put_i32(m, errno_at, -1);  // no CPU binding: 0 would pin netserver to CPU 0
  const auto at = [](std::size_t i) { return data_at + 4 * i; };
  put_i32(m, at(0), r.socket_buffer);  // send_buf_size
  put_i32(m, at(1), r.send_size);
  put_be32(m, at(2), 8);  // send_alignment
  put_be32(m, at(3), 0);  // send_offset
  put_be32(m, at(4), 0);  // send_width: netserver computes its ring
  put_i32(m, at(5), t.rr ? r.request_size : -1);
  put_i32(m, at(6), r.socket_buffer);  // recv_buf_size
  put_i32(m, at(7), r.recv_size);
  put_be32(m, at(8), 8);   // recv_alignment
  put_be32(m, at(9), 0);   // recv_offset
  put_be32(m, at(10), 0);  // recv_width
  put_i32(m, at(11), t.rr ? r.response_size : -1);
  put_be32(m, at(12), t.flags | (r.no_delay ? flag_no_delay : 0));
  put_be32(m, at(13), 0);  // cpu_rate 0.0: not measured
  put_i32(m, at(14), r.test_length_s);
  // 15, 16: so_rcvavoid, so_sndavoid stay 0; 17..19: the dirty/clean counts, unused.
  for (std::size_t i = 17; i <= 19; ++i) put_i32(m, at(i), -1);
  put_be32(m, at(20), r.data_port);
  put_be32(m, at(21), static_cast<std::uint32_t>(r.family));
  put_be32(m, at(22), t.socket_type);
  put_be32(m, at(23), t.protocol);
  put_be32(m, at(24), t.direction);
  put_be32(m, at(25), r.netperf_port);
  // 26..35: no intervals; both data addresses wildcard (so no IPv6 word-order quirk applies).
  put_i32(m, at(36), -1);  // socket_prio
  put_i32(m, at(37), -1);  // socket_tos
  // cong_control and fill_file stay empty; everything after them is zero.
  return m;
}

omni_setup decode_response(std::span<const std::uint8_t> msg) {
  check_answer(msg, "response", "");
  if (const std::int32_t type = i32(msg, type_at); type != omni_response) {
    malformed(fmt::format("netserver's response has type {} where OMNI_RESPONSE ({}) belongs", type,
                          omni_response));
  }
  omni_setup s;
  s.recv_buf_size = static_cast<std::int32_t>(word(msg, 0));
  s.receive_size = word(msg, 1);
  s.send_buf_size = static_cast<std::int32_t>(word(msg, 3));
  s.send_size = word(msg, 4);
  const std::uint32_t port = word(msg, 11);
  if (port == 0 || port > 0xffff) {
    malformed(fmt::format("netserver's response names data_port {}, which is no port", port));
  }
  s.data_port = static_cast<std::uint16_t>(port);
  return s;
}

omni_results decode_results(std::span<const std::uint8_t> msg) {
  check_answer(msg, "results", ", reported instead of its results after the data phase");
  const auto u64 = [&](std::size_t hi) {
    return (std::uint64_t{word(msg, hi)} << 32) | word(msg, hi + 1);
  };
  omni_results r;
  r.bytes_received = u64(0);
  r.recv_calls = word(msg, 2);
  r.recv_buf_size = static_cast<std::int32_t>(word(msg, 3));
  r.bytes_sent = u64(4);
  r.send_calls = word(msg, 6);
  r.send_buf_size = static_cast<std::int32_t>(word(msg, 7));
  // word 8, failed_sends, is never set by netserver: stale response data.
  r.transactions = word(msg, 9);
  const float elapsed = std::bit_cast<float>(word(msg, 10));
  if (!std::isfinite(elapsed) || elapsed < 0) {
    malformed(fmt::format("netserver's results carry elapsed_time {} (bits 0x{:08x}), no duration",
                          elapsed, word(msg, 10)));
  }
  r.elapsed_s = static_cast<double>(elapsed);
  // The CPU words hold stale response data unless netserver measured (cpu_method, word 18).
  if (word(msg, 18) != 0) {
    r.cpu_util = std::bit_cast<float>(word(msg, 11));
    r.num_cpus = word(msg, 19);
  }
  r.transport_retrans = static_cast<std::int32_t>(word(msg, 26));
  const auto* name = msg.data() + results_congestion_at;
  const std::size_t len = ::strnlen(reinterpret_cast<const char*>(name), congestion_size);
  for (std::size_t i = 0; i < len; ++i) {
    if (name[i] < 0x21 || name[i] > 0x7e) {
      malformed(
          fmt::format("netserver's results carry a cong_control name with byte 0x{:02x} "
                      "at position {}",
                      name[i], i));
    }
  }
  r.congestion.assign(reinterpret_cast<const char*>(name), len);
  return r;
}

std::string describe_serv_errno(std::int32_t serv_errno) {
  if (serv_errno == unknown_request_errno) {
    return fmt::format(
        "error {} (netserver does not know the request: is it netperf 2.7, built "
        "with omni tests?)",
        serv_errno);
  }
  return fmt::format("error {} ({})", serv_errno,
                     std::system_category().message(static_cast<int>(serv_errno)));
}

}  // namespace hil::netperf
