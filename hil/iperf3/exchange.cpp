#include "hil/iperf3/exchange.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "hil/iperf3/wire.hpp"

namespace hil::iperf3 {

namespace {

// A double as iperf3's cJSON prints it (src/cjson.c print_number): an integral value as an
// integer ("start_time":0), else 15 significant digits if they read back (within cJSON's
// relative DBL_EPSILON), else 17. Non-finite values become 0: cJSON's null would be refused.
std::string cjson_number(double d) {
  if (!std::isfinite(d)) return "0";
  constexpr double two_pow_63 = 9223372036854775808.0;
  if (d == std::trunc(d) && std::fabs(d) < two_pow_63) {
    return fmt::format("{}", static_cast<std::int64_t>(d));
  }
  std::string text = fmt::format("{:.15g}", d);
  double back = 0;
  std::from_chars(text.data(), text.data() + text.size(), back);  // locale-independent strtod
  if (std::fabs(back - d) >
      std::max(std::fabs(back), std::fabs(d)) * std::numeric_limits<double>::epsilon()) {
    text = fmt::format("{:.17g}", d);
  }
  return text;
}

void append_stream(std::string& out, const exchange_stream& s) {
  auto to = std::back_inserter(out);
  fmt::format_to(to, R"({{"id":{},"bytes":{},"retransmits":{},"jitter":{},"errors":{},)", s.id,
                 s.bytes, s.retransmits, cjson_number(s.jitter_s), s.errors);
  const bool omitted = s.omitted_errors && s.omitted_packets;
  if (omitted) fmt::format_to(to, R"("omitted_errors":{},)", *s.omitted_errors);
  fmt::format_to(to, R"("packets":{},)", s.packets);
  if (omitted) fmt::format_to(to, R"("omitted_packets":{},)", *s.omitted_packets);
  fmt::format_to(to, R"("start_time":{},"end_time":{}}})", cjson_number(s.start_time),
                 cjson_number(s.end_time));
}

template <typename T>
T require(std::optional<T> v, const char* key, std::string_view where) {
  if (!v) {
    detail::throw_protocol_error(
        fmt::format("unable to receive results: {} lacks the required key \"{}\"", where, key));
  }
  return *v;
}

std::int64_t required_int(const nlohmann::json& j, const char* key, std::string_view where) {
  return require(detail::get_int(j, key, where), key, where);
}

double required_double(const nlohmann::json& j, const char* key, std::string_view where) {
  return require(detail::get_double(j, key, where), key, where);
}

int to_int(std::int64_t v, const char* key, std::string_view where) {
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
    detail::throw_protocol_error(fmt::format(
        "unable to receive results: {} \"{}\" = {} does not fit an int", where, key, v));
  }
  return static_cast<int>(v);
}

// bytes is unsigned on both sides; a 3.12 peer only writes values below 2^63 here.
std::uint64_t to_bytes(const nlohmann::json& stream, std::string_view where) {
  const auto it = stream.find("bytes");
  if (it != stream.end() && it->is_number_unsigned()) return it->get<std::uint64_t>();
  const std::int64_t v = required_int(stream, "bytes", where);
  if (v < 0) {
    detail::throw_protocol_error(
        fmt::format("unable to receive results: {} \"bytes\" = {} is negative", where, v));
  }
  return static_cast<std::uint64_t>(v);
}

exchange_stream decode_stream(const nlohmann::json& j, std::size_t index) {
  const std::string where = fmt::format("results stream #{}", index + 1);
  if (!j.is_object()) {
    detail::throw_protocol_error(
        fmt::format("unable to receive results: {} must be a JSON "
                    "object, got {}",
                    where, j.type_name()));
  }
  exchange_stream s;
  s.id = to_int(required_int(j, "id", where), "id", where);
  s.bytes = to_bytes(j, where);
  s.retransmits = required_int(j, "retransmits", where);
  s.jitter_s = required_double(j, "jitter", where);
  s.errors = required_int(j, "errors", where);
  s.packets = required_int(j, "packets", where);
  s.omitted_errors = detail::get_int(j, "omitted_errors", where);
  s.omitted_packets = detail::get_int(j, "omitted_packets", where);
  if (s.omitted_errors.has_value() != s.omitted_packets.has_value()) {
    detail::throw_protocol_error(fmt::format(
        "unable to receive results: {} has \"{}\" without \"{}\" (iperf3 sends both or neither)",
        where, s.omitted_errors ? "omitted_errors" : "omitted_packets",
        s.omitted_errors ? "omitted_packets" : "omitted_errors"));
  }
  s.start_time = detail::get_double(j, "start_time", where).value_or(0);
  s.end_time = detail::get_double(j, "end_time", where).value_or(0);
  return s;
}

}  // namespace

std::string encode_results(const exchange_results& r) {
  // Written by hand rather than through nlohmann::json so numbers print exactly as cJSON does.
  std::string out = fmt::format(R"({{"cpu_util_total":{},"cpu_util_user":{},"cpu_util_system":{},)"
                                R"("sender_has_retransmits":{},)",
                                cjson_number(r.cpu_util_total), cjson_number(r.cpu_util_user),
                                cjson_number(r.cpu_util_system), r.sender_has_retransmits);
  if (!r.congestion_used.empty()) {
    out += R"("congestion_used":)" + nlohmann::json(r.congestion_used).dump() + ",";
  }
  if (!r.server_output_json.empty()) {
    out += R"("server_output_json":)" + r.server_output_json + ",";
  } else if (!r.server_output_text.empty()) {
    out += R"("server_output_text":)" + nlohmann::json(r.server_output_text).dump() + ",";
  }
  out += R"("streams":[)";
  for (std::size_t i = 0; i < r.streams.size(); ++i) {
    if (i != 0) out += ',';
    append_stream(out, r.streams[i]);
  }
  out += "]}";
  return out;
}

exchange_results decode_results(std::string_view json) {
  constexpr std::string_view where = "results message";
  const nlohmann::json j = detail::parse_json_object(json, max_results_json, where);
  exchange_results r;
  r.cpu_util_total = required_double(j, "cpu_util_total", where);
  r.cpu_util_user = required_double(j, "cpu_util_user", where);
  r.cpu_util_system = required_double(j, "cpu_util_system", where);
  r.sender_has_retransmits =
      to_int(required_int(j, "sender_has_retransmits", where), "sender_has_retransmits", where);
  r.congestion_used = detail::get_string(j, "congestion_used", where).value_or("");
  r.server_output_text = detail::get_string(j, "server_output_text", where).value_or("");
  if (const auto out = j.find("server_output_json"); out != j.end()) {
    if (!out->is_object()) {
      detail::throw_protocol_error(
          "unable to receive results: results message \"server_output_json\" is not an object");
    }
    r.server_output_json = out->dump();
  }
  const auto streams = j.find("streams");
  if (streams == j.end()) {
    detail::throw_protocol_error(
        "unable to receive results: results message lacks the required key \"streams\"");
  }
  if (!streams->is_array()) {
    detail::throw_protocol_error(fmt::format(
        "results message \"streams\" must be a JSON array, got {}", streams->type_name()));
  }
  r.streams.reserve(streams->size());
  for (std::size_t i = 0; i < streams->size(); ++i) {
    r.streams.push_back(decode_stream((*streams)[i], i));
  }
  return r;
}

}  // namespace hil::iperf3
