#include "hil/iperf3/extension.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "hil/iperf3/frame_count.hpp"
#include "hil/iperf3/params.hpp"
#include "hil/iperf3/wire.hpp"
#include "hil/measure/units.hpp"

namespace hil::iperf3 {
namespace {

constexpr std::size_t max_ext_json = 4096;
constexpr std::uint8_t hello_h = 'H';
constexpr std::uint8_t hello_x = 'X';

}  // namespace

std::int64_t detail::required_int(const nlohmann::json& j, const char* key, std::string_view where,
                                  std::int64_t lo, std::int64_t hi) {
  const auto v = detail::get_int(j, key, where);
  if (!v) detail::throw_protocol_error(fmt::format("{}: \"{}\" is missing", where, key));
  if (*v < lo || *v > hi) {
    detail::throw_protocol_error(
        fmt::format("{}: \"{}\" = {} is outside {}..{}", where, key, *v, lo, hi));
  }
  return *v;
}

using detail::required_int;

std::array<std::uint8_t, hello_size> encode_hello(data_kind k, const data_token& token) {
  std::array<std::uint8_t, hello_size> hello{
      hello_h, hello_x, static_cast<std::uint8_t>(extension_version), static_cast<std::uint8_t>(k)};
  std::copy(token.begin(), token.end(), hello.begin() + 4);
  return hello;
}

std::optional<data_kind> decode_hello(std::span<const std::uint8_t, hello_size> bytes,
                                      const data_token& token) {
  if (bytes[0] != hello_h || bytes[1] != hello_x || bytes[2] != extension_version ||
      !std::equal(token.begin(), token.end(), bytes.begin() + 4)) {
    return std::nullopt;
  }
  switch (static_cast<data_kind>(bytes[3])) {
    case data_kind::rr:
    case data_kind::crr:
    case data_kind::sink:
    case data_kind::source:
      return static_cast<data_kind>(bytes[3]);
  }
  return std::nullopt;
}

std::string encode_request_params(const measure::rr_spec& spec, std::string_view authtoken) {
  test_params plain;
  plain.duration = std::chrono::ceil<std::chrono::seconds>(spec.duration);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(encode_params(plain, authtoken));
  j["hilperf"] = {{"version", extension_version},
                  {"workload", std::string(measure::workload_name(spec.kind))},
                  {"request_size", spec.request_size},
                  {"response_size", spec.response_size},
                  {"duration_ms", spec.duration.count()},
                  {"load_streams", spec.load_streams}};
  return j.dump();
}

std::optional<extension_request> decode_request(std::string_view params_json) {
  const auto j = detail::parse_json_object(params_json, max_param_json, "parameter message");
  const auto it = j.find("hilperf");
  if (it == j.end()) return std::nullopt;
  constexpr std::string_view where = "hilperf extension request";
  if (!it->is_object()) detail::throw_protocol_error(fmt::format("{}: not an object", where));
  const auto& h = *it;
  extension_request r;
  r.version = static_cast<int>(required_int(h, "version", where, 1, 1 << 20));
  if (r.version != extension_version) return r;  // refused by validate_request, with the reason
  const auto name = detail::get_string(h, "workload", where);
  if (!name) detail::throw_protocol_error(fmt::format("{}: \"workload\" is missing", where));
  if (*name == frame_count_workload) {
    r.frames = decode_frame_count_request(h);
    return r;
  }
  const auto kind = measure::workload_from_name(*name);
  if (!kind) detail::throw_protocol_error(fmt::format("{}: unknown workload \"{}\"", where, *name));
  r.spec.kind = *kind;
  r.spec.request_size =
      static_cast<std::uint32_t>(required_int(h, "request_size", where, 1, max_rr_message));
  r.spec.response_size =
      static_cast<std::uint32_t>(required_int(h, "response_size", where, 1, max_rr_message));
  r.spec.duration = std::chrono::milliseconds(required_int(h, "duration_ms", where, 1, 86'400'000));
  r.spec.load_streams = static_cast<int>(required_int(h, "load_streams", where, 0, 128));
  return r;
}

std::string validate_request(const extension_request& r) {
  if (r.version != extension_version) {
    return fmt::format(
        "hilperf extension version {} is not supported (this peer speaks version "
        "{}): use the same hilperf release on both ends",
        r.version, extension_version);
  }
  if (r.frames) return {};
  if (!measure::is_request_response(r.spec.kind)) {
    return fmt::format("{} runs over plain iperf3, not the extension",
                       measure::workload_name(r.spec.kind));
  }
  if (r.spec.kind == measure::workload::udp_rr &&
      std::max(r.spec.request_size, r.spec.response_size) > measure::max_udp_payload) {
    return fmt::format("UDP_RR request and response must fit one datagram ({} bytes)",
                       measure::max_udp_payload);
  }
  return {};
}

std::string encode_accept(const extension_accept_msg& m) {
  std::string token;
  for (const auto b : m.token) token += fmt::format("{:02x}", b);
  return nlohmann::json{
      {"version", m.version}, {"tcp_port", m.tcp_port}, {"udp_port", m.udp_port}, {"token", token}}
      .dump();
}

extension_accept_msg decode_accept(std::string_view json) {
  constexpr std::string_view where = "hilperf extension answer";
  const auto j = detail::parse_json_object(json, max_ext_json, where);
  extension_accept_msg m;
  m.version = static_cast<int>(required_int(j, "version", where, 1, 1 << 20));
  m.tcp_port = static_cast<std::uint16_t>(required_int(j, "tcp_port", where, 1, 65535));
  m.udp_port = static_cast<std::uint16_t>(required_int(j, "udp_port", where, 1, 65535));
  const auto token = detail::get_string(j, "token", where);
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  if (!token || token->size() != 2 * m.token.size() ||
      !std::all_of(token->begin(), token->end(), [&](char c) { return hex(c) >= 0; })) {
    detail::throw_protocol_error(fmt::format(
        "{}: \"token\" must be {} lowercase hex digits (a peer of extension version 1 sends "
        "none: use the same hilperf release on both ends)",
        where, 2 * m.token.size()));
  }
  for (std::size_t i = 0; i < m.token.size(); ++i) {
    m.token[i] = static_cast<std::uint8_t>(hex((*token)[2 * i]) * 16 + hex((*token)[2 * i + 1]));
  }
  return m;
}

std::string encode_refuse(std::string_view error) {
  return nlohmann::json{{"version", extension_version}, {"error", error}}.dump();
}

std::string decode_refuse(std::string_view json) {
  constexpr std::string_view where = "hilperf extension refusal";
  const auto j = detail::parse_json_object(json, max_ext_json, where);
  return detail::get_string(j, "error", where).value_or("(no reason given)");
}

std::string encode_ext_results(const extension_results& r) {
  return nlohmann::json{{"transactions", r.transactions},
                        {"cpu_util_total", r.cpu_util_total},
                        {"cpu_util_user", r.cpu_util_user},
                        {"cpu_util_system", r.cpu_util_system}}
      .dump();
}

extension_results decode_ext_results(std::string_view json) {
  constexpr std::string_view where = "hilperf extension results";
  const auto j = detail::parse_json_object(json, max_ext_json, where);
  extension_results r;
  r.transactions = static_cast<std::uint64_t>(
      required_int(j, "transactions", where, 0, std::numeric_limits<std::int64_t>::max()));
  r.cpu_util_total = detail::get_double(j, "cpu_util_total", where).value_or(0);
  r.cpu_util_user = detail::get_double(j, "cpu_util_user", where).value_or(0);
  r.cpu_util_system = detail::get_double(j, "cpu_util_system", where).value_or(0);
  return r;
}

}  // namespace hil::iperf3
