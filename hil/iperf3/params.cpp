#include "hil/iperf3/params.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>
#include <vector>

#include "hil/iperf3/wire.hpp"
#include "hil/measure/units.hpp"

namespace hil::iperf3 {

namespace {

// Limits of iperf3 HEAD (src/iperf.h, src/iperf_api.h) that get_parameters() enforces.
constexpr std::int64_t max_time_s = 86400;                                // MAX_TIME
constexpr std::int64_t max_omit_s = 600;                                  // MAX_OMIT_TIME
constexpr std::int64_t max_streams = 128;                                 // MAX_STREAMS
constexpr std::int64_t max_blocksize = std::int64_t{1024} * 1024;         // MAX_BLOCKSIZE
constexpr std::int64_t min_udp_blocksize = 16;                            // MIN_UDP_BLOCKSIZE
constexpr std::int64_t max_udp_blocksize = measure::max_udp_payload;      // MAX_UDP_BLOCKSIZE
constexpr std::int64_t max_tcp_buffer = std::int64_t{512} * 1024 * 1024;  // MAX_TCP_BUFFER
constexpr std::int64_t max_mss = 32767;                                   // MAX_MSS
constexpr std::int64_t max_tos = 255;
constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t default_pacing_timer_us = 1000;

constexpr const char* parameter_where = "parameter";

// The parameters as signed wire values: both directions validate this one representation.
struct wire_params {
  bool tcp = false;
  bool udp = false;
  bool sctp = false;
  std::int64_t omit = 0;
  std::optional<std::int64_t> time;  // absent: the server keeps its default (10 s)
  std::int64_t num = 0;
  std::int64_t blockcount = 0;
  std::int64_t mss = 0;
  bool nodelay = false;
  std::int64_t parallel = 1;
  bool reverse = false;
  bool bidirectional = false;
  std::int64_t window = 0;
  std::optional<std::int64_t> len;  // absent: the server's default block length
  std::int64_t bandwidth = 0;
  std::int64_t pacing_timer = default_pacing_timer_us;
  std::int64_t tos = 0;
  bool get_server_output = false;
  bool udp_counters_64bit = false;
  bool dont_fragment = false;
  std::optional<std::string> authtoken;
  std::string client_version;
};

// An unsigned spec value as the signed number a peer reads (>= 2^63 reads as -1 on the wire).
std::int64_t to_wire(std::uint64_t v) {
  return v > static_cast<std::uint64_t>(int64_max) ? -1 : static_cast<std::int64_t>(v);
}

void check_range(std::vector<std::string>& problems, const char* key, std::int64_t v,
                 std::int64_t lo, std::int64_t hi, std::string_view why) {
  if (v >= lo && v <= hi) return;
  if (hi == int64_max) {
    problems.push_back(fmt::format("\"{}\" = {} must be at least {} ({})", key, v, lo, why));
  } else {
    problems.push_back(fmt::format("\"{}\" = {} is outside {}..{} ({})", key, v, lo, hi, why));
  }
}

// Every value a stock iperf3 HEAD server (or we) would refuse, one message each.
std::vector<std::string> find_problems(const wire_params& p) {
  std::vector<std::string> problems;
  if (p.sctp) problems.emplace_back("SCTP is not supported (hilperf speaks TCP and UDP)");
  if (p.tcp && p.udp) problems.emplace_back("both \"tcp\" and \"udp\" are set");
  if (!p.tcp && !p.udp && !p.sctp) {
    problems.emplace_back("no protocol: expected \"tcp\":true or \"udp\":true");
  }
  check_range(problems, "omit", p.omit, 0, max_omit_s, "seconds, iperf3 MAX_OMIT_TIME");
  if (p.time) check_range(problems, "time", *p.time, 0, max_time_s, "seconds, iperf3 MAX_TIME");
  check_range(problems, "num", p.num, 0, int64_max, "bytes");
  check_range(problems, "blockcount", p.blockcount, 0, int64_max, "blocks");
  check_range(problems, "MSS", p.mss, 0, max_mss, "bytes, iperf3 MAX_MSS");
  check_range(problems, "parallel", p.parallel, 1, max_streams, "streams, iperf3 MAX_STREAMS");
  if (p.reverse && p.bidirectional) {
    problems.emplace_back("\"reverse\" and \"bidirectional\" are mutually exclusive");
  }
  check_range(problems, "window", p.window, 0, max_tcp_buffer, "bytes, iperf3 MAX_TCP_BUFFER");
  if (p.len && p.udp && *p.len != 0) {  // UDP len 0 means the default, as in iperf3
    check_range(problems, "len", *p.len, min_udp_blocksize, max_udp_blocksize,
                "bytes per UDP datagram, header included");
  } else if (p.len && !p.udp) {
    check_range(problems, "len", *p.len, 1, max_blocksize, "bytes per write, MAX_BLOCKSIZE");
  }
  check_range(problems, "bandwidth", p.bandwidth, 0, int64_max, "bits/s per stream");
  check_range(problems, "pacing_timer", p.pacing_timer, 0, int64_max, "microseconds");
  check_range(problems, "TOS", p.tos, 0, max_tos, "IP TOS byte");
  return problems;
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += "; ";
    out += part;
  }
  return out;
}

wire_params from_spec(const test_params& s) {
  wire_params p;
  p.tcp = s.proto == measure::protocol::tcp;
  p.udp = s.proto == measure::protocol::udp;
  p.omit = s.omit.count();
  // iperf3 -n/-k zero the duration so the byte or block count ends the test.
  p.time = s.bytes != 0 || s.blocks != 0 ? 0 : s.duration.count();
  p.num = to_wire(s.bytes);
  p.blockcount = to_wire(s.blocks);
  p.mss = s.mss;
  p.nodelay = s.nodelay;
  p.parallel = s.parallel;
  p.reverse = s.reverse;
  p.bidirectional = s.bidirectional;
  p.window = s.window;
  p.len = s.effective_block_len();
  p.bandwidth = to_wire(s.effective_bitrate());
  p.tos = s.tos;
  p.get_server_output = s.get_server_output;
  p.udp_counters_64bit = s.udp_counters_64bit;
  p.dont_fragment = s.dont_fragment;
  p.client_version = s.client_version;
  return p;
}

// In the order of iperf3's send_parameters() (src/iperf_api.c), optional keys only when set.
nlohmann::ordered_json to_json(const wire_params& p) {
  nlohmann::ordered_json j;
  j[p.tcp ? "tcp" : "udp"] = true;
  j["omit"] = p.omit;
  j["time"] = p.time.value_or(0);
  j["num"] = p.num;
  j["blockcount"] = p.blockcount;
  if (p.mss > 0) j["MSS"] = p.mss;
  if (p.nodelay) j["nodelay"] = true;
  j["parallel"] = p.parallel;
  if (p.reverse) j["reverse"] = true;
  if (p.bidirectional) j["bidirectional"] = true;
  if (p.window > 0) j["window"] = p.window;
  if (p.len.value_or(0) > 0) j["len"] = *p.len;
  if (p.bandwidth > 0) j["bandwidth"] = p.bandwidth;
  if (p.pacing_timer > 0) j["pacing_timer"] = p.pacing_timer;
  if (p.tos > 0) j["TOS"] = p.tos;
  if (p.get_server_output) j["get_server_output"] = 1;
  if (p.udp_counters_64bit) j["udp_counters_64bit"] = 1;
  if (p.dont_fragment) j["dont_fragment"] = 1;
  if (p.authtoken) j["authtoken"] = *p.authtoken;
  j["client_version"] = p.client_version;
  return j;
}

wire_params from_json(const nlohmann::json& j) {
  using detail::get_bool;
  using detail::get_int;
  wire_params p;
  p.tcp = get_bool(j, "tcp", parameter_where).value_or(false);
  p.udp = get_bool(j, "udp", parameter_where).value_or(false);
  p.sctp = get_bool(j, "sctp", parameter_where).value_or(false);
  p.omit = get_int(j, "omit", parameter_where).value_or(0);
  p.time = get_int(j, "time", parameter_where);
  p.num = get_int(j, "num", parameter_where).value_or(0);
  p.blockcount = get_int(j, "blockcount", parameter_where).value_or(0);
  p.mss = get_int(j, "MSS", parameter_where).value_or(0);
  p.nodelay = get_bool(j, "nodelay", parameter_where).value_or(false);
  p.parallel = get_int(j, "parallel", parameter_where).value_or(1);
  p.reverse = get_bool(j, "reverse", parameter_where).value_or(false);
  p.bidirectional = get_bool(j, "bidirectional", parameter_where).value_or(false);
  p.window = get_int(j, "window", parameter_where).value_or(0);
  p.len = get_int(j, "len", parameter_where);
  p.bandwidth = get_int(j, "bandwidth", parameter_where).value_or(0);
  p.pacing_timer = get_int(j, "pacing_timer", parameter_where).value_or(default_pacing_timer_us);
  p.tos = get_int(j, "TOS", parameter_where).value_or(0);
  // Flags sent as the number 1; iperf3 HEAD reacts to the key's presence, we to its value.
  p.get_server_output = get_int(j, "get_server_output", parameter_where).value_or(0) != 0;
  p.udp_counters_64bit = get_int(j, "udp_counters_64bit", parameter_where).value_or(0) != 0;
  p.dont_fragment = get_int(j, "dont_fragment", parameter_where).value_or(0) != 0;
  p.authtoken = detail::get_string(j, "authtoken", parameter_where);
  p.client_version = detail::get_string(j, "client_version", parameter_where).value_or("");
  return p;
}

// Only after find_problems() found nothing: every value is in range for its field.
test_params to_spec(const wire_params& p) {
  test_params s;
  s.proto = p.udp ? measure::protocol::udp : measure::protocol::tcp;
  if (p.time) s.duration = std::chrono::seconds(*p.time);
  s.bytes = static_cast<std::uint64_t>(p.num);
  s.blocks = static_cast<std::uint64_t>(p.blockcount);
  s.omit = std::chrono::seconds(p.omit);
  s.parallel = static_cast<int>(p.parallel);
  s.reverse = p.reverse;
  s.bidirectional = p.bidirectional;
  s.block_len = static_cast<std::uint32_t>(p.len.value_or(0));
  s.bitrate_bps = static_cast<std::uint64_t>(p.bandwidth);
  s.bitrate_given = true;  // on the wire an absent or 0 bandwidth means unlimited
  s.window = static_cast<int>(p.window);
  s.mss = static_cast<int>(p.mss);
  s.nodelay = p.nodelay;
  s.tos = static_cast<int>(p.tos);
  s.dont_fragment = p.dont_fragment;
  s.udp_counters_64bit = p.udp_counters_64bit;
  s.get_server_output = p.get_server_output;
  s.client_version = p.client_version;
  return s;
}

}  // namespace

std::string encode_params(const test_params& s, std::string_view authtoken) {
  wire_params p = from_spec(s);
  if (!authtoken.empty()) p.authtoken = std::string(authtoken);
  const std::vector<std::string> problems = find_problems(p);
  if (!problems.empty()) {
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            "an iperf3 server would refuse this test: " + join(problems));
  }
  std::string json = to_json(p).dump();
  if (json.size() > max_param_json) {
    throw std::system_error(
        std::make_error_code(std::errc::invalid_argument),
        fmt::format("the parameter message of {} bytes exceeds iperf3's {}-byte limit; shorten "
                    "client_version",
                    json.size(), max_param_json));
  }
  return json;
}

test_params decode_params(std::string_view json) { return decode_client_params(json).spec; }

client_params decode_client_params(std::string_view json) {
  const nlohmann::json j = detail::parse_json_object(json, max_param_json, "parameter message");
  const wire_params p = from_json(j);
  const std::vector<std::string> problems = find_problems(p);
  if (!problems.empty()) {
    detail::throw_protocol_error("invalid iperf3 parameters: " + join(problems));
  }
  return {to_spec(p), p.authtoken};
}

}  // namespace hil::iperf3
