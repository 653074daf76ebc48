#include "hil/iperf3/frame_count.hpp"

#include <limits>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "hil/iperf3/params.hpp"
#include "hil/iperf3/wire.hpp"

namespace hil::iperf3 {
namespace {

constexpr std::size_t max_count_json = 4096;
constexpr std::int64_t max_count = std::numeric_limits<std::int64_t>::max();

count_method method_of(const nlohmann::json& j, const char* key, std::string_view where) {
  const auto text = detail::get_string(j, key, where);
  if (!text) detail::throw_protocol_error(fmt::format("{}: \"{}\" is missing", where, key));
  if (*text == "xdp") return count_method::xdp;
  if (*text == "socket") return count_method::socket;
  detail::throw_protocol_error(
      fmt::format("{}: \"{}\" = \"{}\" is neither \"xdp\" nor \"socket\"", where, key, *text));
}

std::uint64_t count_of(const nlohmann::json& j, const char* key, std::string_view where) {
  return static_cast<std::uint64_t>(detail::required_int(j, key, where, 0, max_count));
}

}  // namespace

std::string_view to_string(count_method m) noexcept {
  return m == count_method::xdp ? "xdp" : "socket";
}

std::string encode_frame_count_params(const frame_count_request& r, std::string_view authtoken) {
  test_params plain;
  plain.duration = std::chrono::ceil<std::chrono::seconds>(r.duration);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(encode_params(plain, authtoken));
  j["hilperf"] = {{"version", extension_version},
                  {"workload", std::string(frame_count_workload)},
                  {"duration_ms", r.duration.count()},
                  {"count", r.xdp ? "xdp" : "socket"}};
  return j.dump();
}

frame_count_request decode_frame_count_request(const nlohmann::json& h) {
  constexpr std::string_view where = "hilperf frame count request";
  frame_count_request r;
  r.duration =
      std::chrono::milliseconds(detail::required_int(h, "duration_ms", where, 1, max_count_ms));
  r.xdp = !h.contains("count") || method_of(h, "count", where) == count_method::xdp;
  return r;
}

std::string encode_count_accept(const frame_count_accept& a) {
  return nlohmann::json{{"version", a.version},
                        {"udp_port", a.udp_port},
                        {"count", std::string(to_string(a.method))},
                        {"attach_mode", a.attach_mode},
                        {"why", a.why}}
      .dump();
}

frame_count_accept decode_count_accept(std::string_view json) {
  constexpr std::string_view where = "hilperf frame count answer";
  const auto j = detail::parse_json_object(json, max_count_json, where);
  frame_count_accept a;
  a.version = static_cast<int>(detail::required_int(j, "version", where, 1, 1 << 20));
  a.udp_port = static_cast<std::uint16_t>(detail::required_int(j, "udp_port", where, 1, 65535));
  a.method = method_of(j, "count", where);
  a.attach_mode = detail::get_string(j, "attach_mode", where).value_or("");
  a.why = detail::get_string(j, "why", where).value_or("");
  return a;
}

std::string encode_count_results(const frame_count_result& r) {
  nlohmann::json j{{"count", std::string(to_string(r.method))},
                   {"attach_mode", r.attach_mode},
                   {"frames", r.frames},
                   {"bytes", r.bytes},
                   {"other_frames", r.other_frames}};
  if (r.rx_packets_delta) j["rx_packets_delta"] = *r.rx_packets_delta;
  return j.dump();
}

frame_count_result decode_count_results(std::string_view json) {
  constexpr std::string_view where = "hilperf frame count results";
  const auto j = detail::parse_json_object(json, max_count_json, where);
  frame_count_result r;
  r.method = method_of(j, "count", where);
  r.attach_mode = detail::get_string(j, "attach_mode", where).value_or("");
  r.frames = count_of(j, "frames", where);
  r.bytes = count_of(j, "bytes", where);
  r.other_frames = count_of(j, "other_frames", where);
  if (j.contains("rx_packets_delta")) r.rx_packets_delta = count_of(j, "rx_packets_delta", where);
  return r;
}

}  // namespace hil::iperf3
