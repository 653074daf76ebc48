// The PARAM_EXCHANGE JSON. The "captured" strings are the exact bytes a Debian iperf3 3.12 client
// wrote after the length prefix, seen with
//   iperf3 -s -p <port> -1 &
//   strace -f -e trace=write -xx -s 2000 iperf3 -c 127.0.0.1 -p <port> <flags>
// (the first two are the examples in docs/iperf3-protocol.md §6, which describes the keys).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <system_error>
#include <vector>

#include "hil/iperf3/params.hpp"
#include "hil/iperf3/wire.hpp"

namespace {

using hil::measure::protocol;
using test_spec = hil::iperf3::test_params;
using ::testing::HasSubstr;
using ::testing::Not;
using namespace hil::iperf3;
using namespace std::chrono_literals;

// Every field the parameter exchange carries, for comparison with readable failures.
std::string describe(const test_spec& s) {
  return fmt::format(
      "proto={} t={} n={} k={} O={} P={} R={} bidir={} l={} b={} w={} M={} N={} S={} df={} "
      "c64={} version='{}'",
      s.proto == protocol::tcp ? "tcp" : "udp", s.duration.count(), s.bytes, s.blocks,
      s.omit.count(), s.parallel, s.reverse, s.bidirectional, s.block_len, s.bitrate_bps, s.window,
      s.mss, s.nodelay, s.tos, s.dont_fragment, s.udp_counters_64bit, s.client_version);
}

std::string protocol_error_of(std::string_view json) {
  try {
    (void)decode_params(json);
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::protocol_error);
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << json;
  return {};
}

// ---- captured 3.12 messages: decode, and encode back byte for byte ---------------------------

struct captured_case {
  const char* name;
  const char* flags;  // the iperf3 -c flags that produced json
  const char* json;
  test_spec spec;
};

test_spec make_spec(protocol proto, std::chrono::seconds t, int parallel, std::uint32_t len) {
  test_spec s;
  s.proto = proto;
  s.duration = t;
  s.parallel = parallel;
  s.block_len = len;
  return s;
}

std::vector<captured_case> captured_cases() {
  std::vector<captured_case> cases;
  {
    test_spec s = make_spec(protocol::tcp, 1s, 2, 65536);
    s.reverse = true;
    cases.push_back({"TcpReverse", "-t 1 -P 2 -R -l 64K",
                     R"({"tcp":true,"omit":0,"time":1,"num":0,"blockcount":0,"parallel":2,)"
                     R"("reverse":true,"len":65536,"pacing_timer":1000,"client_version":"3.12"})",
                     s});
  }
  {
    test_spec s = make_spec(protocol::udp, 2s, 2, 1472);
    s.bitrate_bps = 100'000'000;
    cases.push_back({"Udp", "-u -t 2 -P 2 -l 1472 -b 100M",
                     R"({"udp":true,"omit":0,"time":2,"num":0,"blockcount":0,"parallel":2,)"
                     R"("len":1472,"bandwidth":100000000,"pacing_timer":1000,)"
                     R"("client_version":"3.12"})",
                     s});
  }
  cases.push_back({"TcpDefaults", "-t 1 -P 2",
                   R"({"tcp":true,"omit":0,"time":1,"num":0,"blockcount":0,"parallel":2,)"
                   R"("len":131072,"pacing_timer":1000,"client_version":"3.12"})",
                   make_spec(protocol::tcp, 1s, 2, 131072)});
  {
    test_spec s = make_spec(protocol::tcp, 1s, 1, 8000);
    s.window = 1048576;
    s.nodelay = true;
    s.mss = 1400;
    s.tos = 16;
    s.reverse = true;
    s.bitrate_bps = 50'000'000;
    cases.push_back({"TcpAllOptions", "-t 1 -w 1M -N -M 1400 -S 16 -R -l 8000 -b 50M",
                     R"({"tcp":true,"omit":0,"time":1,"num":0,"blockcount":0,"MSS":1400,)"
                     R"("nodelay":true,"parallel":1,"reverse":true,"window":1048576,)"
                     R"("len":8000,"bandwidth":50000000,"pacing_timer":1000,"TOS":16,)"
                     R"("client_version":"3.12"})",
                     s});
  }
  {
    test_spec s = make_spec(protocol::udp, 1s, 1, 1000);
    s.omit = 1s;
    s.bidirectional = true;
    s.bitrate_bps = 2'000'000;
    s.tos = 16;
    s.udp_counters_64bit = true;
    s.dont_fragment = true;
    cases.push_back({"UdpAllOptions",
                     "-u -t 1 --dont-fragment --udp-counters-64bit -S 0x10 --bidir -l 1000 -b 2M "
                     "-O 1",
                     R"({"udp":true,"omit":1,"time":1,"num":0,"blockcount":0,"parallel":1,)"
                     R"("bidirectional":true,"len":1000,"bandwidth":2000000,"pacing_timer":1000,)"
                     R"("TOS":16,"udp_counters_64bit":1,"dont_fragment":1,)"
                     R"("client_version":"3.12"})",
                     s});
  }
  {
    // -n zeroes the duration on the wire; decoding gives duration 0 with the byte count.
    test_spec s = make_spec(protocol::tcp, 0s, 3, 131072);
    s.bytes = 1048576;
    cases.push_back({"TcpBytes", "-n 1M -P 3",
                     R"({"tcp":true,"omit":0,"time":0,"num":1048576,"blockcount":0,)"
                     R"("parallel":3,"len":131072,"pacing_timer":1000,"client_version":"3.12"})",
                     s});
  }
  return cases;
}

class CapturedParams : public ::testing::TestWithParam<captured_case> {};

TEST_P(CapturedParams, DecodesToTheSpec) {
  EXPECT_EQ(describe(decode_params(GetParam().json)), describe(GetParam().spec))
      << "iperf3 -c " << GetParam().flags;
}

TEST_P(CapturedParams, EncodesByteForByte) {
  EXPECT_EQ(encode_params(GetParam().spec), GetParam().json) << "iperf3 -c " << GetParam().flags;
}

TEST_P(CapturedParams, FitsTheFrameLimit) {
  const std::string frame = encode_frame(encode_params(GetParam().spec));
  frame_decoder d(max_param_json, "parameter message");
  EXPECT_EQ(d.feed(frame.data(), frame.size()), frame.size());
  EXPECT_EQ(d.take(), GetParam().json);
}

INSTANTIATE_TEST_SUITE_P(Iperf3v312, CapturedParams, ::testing::ValuesIn(captured_cases()),
                         [](const auto& test) { return std::string(test.param.name); });

// ---- encode -----------------------------------------------------------------------------------

TEST(EncodeParams, DefaultsAreIperf3Defaults) {
  test_spec tcp;
  EXPECT_THAT(encode_params(tcp), HasSubstr(R"("time":10,)"));
  EXPECT_THAT(encode_params(tcp), HasSubstr(R"("len":131072,)"));
  EXPECT_THAT(encode_params(tcp), Not(HasSubstr("bandwidth")));

  test_spec udp;
  udp.proto = protocol::udp;
  EXPECT_EQ(encode_params(udp),
            R"({"udp":true,"omit":0,"time":10,"num":0,"blockcount":0,"parallel":1,"len":1460,)"
            R"("bandwidth":1048576,"pacing_timer":1000,"client_version":"3.12"})");
}

TEST(EncodeParams, BlockCountZeroesTheTime) {
  test_spec s;
  s.blocks = 100;
  s.client_version = "hilperf";
  EXPECT_EQ(encode_params(s),
            R"({"tcp":true,"omit":0,"time":0,"num":0,"blockcount":100,"parallel":1,)"
            R"("len":131072,"pacing_timer":1000,"client_version":"hilperf"})");
}

TEST(EncodeParams, RefusesWhatAServerWouldRejectListingEveryProblem) {
  test_spec s;
  s.proto = protocol::udp;
  s.parallel = 0;
  s.block_len = 8;
  s.reverse = true;
  s.bidirectional = true;
  try {
    (void)encode_params(s);
    FAIL() << "accepted";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::invalid_argument);
    EXPECT_THAT(e.what(), HasSubstr(R"("parallel" = 0 is outside 1..128)"));
    EXPECT_THAT(e.what(), HasSubstr(R"("len" = 8 is outside 16..65507)"));
    EXPECT_THAT(e.what(), HasSubstr("mutually exclusive"));
  }
  test_spec negative;
  negative.duration = -1s;
  EXPECT_THROW((void)encode_params(negative), std::system_error);
  test_spec huge_version;
  huge_version.client_version = std::string(max_param_json, 'x');
  EXPECT_THROW((void)encode_params(huge_version), std::system_error);
}

TEST(EncodeParams, RoundTripsThroughDecode) {
  test_spec s;
  s.proto = protocol::udp;
  s.duration = 86400s;
  s.omit = 600s;
  s.parallel = 128;
  s.block_len = 65507;
  s.bitrate_bps = 10'000'000'000ULL;
  s.window = 512 * 1024 * 1024;
  s.tos = 255;
  s.dont_fragment = true;
  s.udp_counters_64bit = true;
  s.bidirectional = true;
  s.client_version = "hilperf 0.1";
  EXPECT_EQ(describe(decode_params(encode_params(s))), describe(s));

  test_spec t;
  t.mss = 32767;
  t.nodelay = true;
  t.block_len = 1024 * 1024;
  t.reverse = true;
  t.blocks = 7;
  t.duration = 0s;  // what decode gives back for a block-count test
  EXPECT_EQ(describe(decode_params(encode_params(t))), describe(t));
}

// ---- decode: what our server accepts ----------------------------------------------------------

TEST(DecodeParams, IgnoresKeysOfNewerClients) {
  // A 3.21 UDP client always sends the GSO/GRO keys (src/iperf_api.c send_parameters, HEAD).
  const auto s = decode_params(
      R"({"udp":true,"omit":0,"time":2,"num":0,"blockcount":0,"parallel":2,"len":1472,)"
      R"("bandwidth":100000000,"pacing_timer":1000,"gso":0,"gso_dg_size":0,)"
      R"("gso_bf_size":65507,"gro":0,"gro_bf_size":65507,"skip_rx_copy":1,"title":"x",)"
      R"("client_version":"3.21"})");
  EXPECT_EQ(s.proto, protocol::udp);
  EXPECT_EQ(s.block_len, 1472U);
  EXPECT_EQ(s.client_version, "3.21");
}

TEST(DecodeParams, AbsentKeysKeepTheDefaults) {
  const auto s = decode_params(R"({"tcp":true})");
  EXPECT_EQ(s.duration, 10s);
  EXPECT_EQ(s.parallel, 1);
  EXPECT_EQ(s.block_len, 0U);
  EXPECT_EQ(s.client_version, "");
}

TEST(DecodeParams, FalseBooleansAndZeroUdpLenAreAccepted) {
  const auto s = decode_params(R"({"udp":true,"tcp":false,"reverse":false,"len":0})");
  EXPECT_EQ(s.proto, protocol::udp);
  EXPECT_FALSE(s.reverse);
  EXPECT_EQ(s.block_len, 0U);  // iperf3 HEAD: UDP len 0 means the default
}

TEST(DecodeParams, FlagNumbersMeanTheirValue) {
  const auto s = decode_params(R"({"udp":true,"udp_counters_64bit":0,"dont_fragment":1})");
  EXPECT_FALSE(s.udp_counters_64bit);
  EXPECT_TRUE(s.dont_fragment);
}

TEST(DecodeParams, ListsEveryProblemAtOnce) {
  const std::string what = protocol_error_of(R"({"tcp":true,"parallel":0,"TOS":300})");
  EXPECT_THAT(what, HasSubstr("invalid iperf3 parameters"));
  EXPECT_THAT(what, HasSubstr(R"("parallel" = 0)"));
  EXPECT_THAT(what, HasSubstr(R"("TOS" = 300)"));
}

struct rejected_case {
  const char* name;
  const char* json;
  const char* message;
};

class RejectedParams : public ::testing::TestWithParam<rejected_case> {};

TEST_P(RejectedParams, WithAMessageNamingTheProblem) {
  EXPECT_THAT(protocol_error_of(GetParam().json), HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Ranges, RejectedParams,
    ::testing::Values(
        rejected_case{"NoStreams", R"({"tcp":true,"parallel":0})",
                      R"("parallel" = 0 is outside 1..128)"},
        rejected_case{"TooManyStreams", R"({"tcp":true,"parallel":129})", R"("parallel" = 129)"},
        rejected_case{"TooLong", R"({"tcp":true,"time":86401})",
                      R"("time" = 86401 is outside 0..86400)"},
        rejected_case{"NegativeTime", R"({"tcp":true,"time":-1})", R"("time" = -1)"},
        rejected_case{"OmitTooLong", R"({"tcp":true,"omit":601})", R"("omit" = 601)"},
        rejected_case{"UdpLenTooShort", R"({"udp":true,"len":15})",
                      R"("len" = 15 is outside 16..65507)"},
        rejected_case{"UdpLenTooLong", R"({"udp":true,"len":65508})", R"("len" = 65508)"},
        rejected_case{"TcpLenZero", R"({"tcp":true,"len":0})",
                      R"("len" = 0 is outside 1..1048576)"},
        rejected_case{"TcpLenTooLong", R"({"tcp":true,"len":1048577})", R"("len" = 1048577)"},
        rejected_case{"WindowTooBig", R"({"tcp":true,"window":536870913})",
                      R"("window" = 536870913 is outside 0..536870912)"},
        rejected_case{"TosTooBig", R"({"tcp":true,"TOS":256})", R"("TOS" = 256)"},
        rejected_case{"MssTooBig", R"({"tcp":true,"MSS":32768})",
                      R"("MSS" = 32768 is outside 0..32767)"},
        rejected_case{"NegativeBytes", R"({"tcp":true,"num":-5})",
                      R"("num" = -5 must be at least 0)"},
        rejected_case{"NegativeRate", R"({"udp":true,"bandwidth":-1})", R"("bandwidth" = -1)"},
        rejected_case{"Sctp", R"({"sctp":true})", "SCTP is not supported"},
        rejected_case{"BothProtocols", R"({"tcp":true,"udp":true})",
                      R"(both "tcp" and "udp" are set)"},
        rejected_case{"NoProtocol", R"({"time":1})", "no protocol"},
        rejected_case{"ReverseAndBidir", R"({"tcp":true,"reverse":true,"bidirectional":true})",
                      "mutually exclusive"}),
    [](const auto& test) { return std::string(test.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Types, RejectedParams,
    ::testing::Values(rejected_case{"TimeAsString", R"({"tcp":true,"time":"10"})",
                                    R"(parameter "time" must be a JSON number, got string "10")"},
                      rejected_case{"ReverseAsNumber", R"({"tcp":true,"reverse":1})",
                                    R"(parameter "reverse" must be a JSON boolean)"},
                      rejected_case{"TcpAsString", R"({"tcp":"true"})",
                                    R"(parameter "tcp" must be a JSON boolean)"},
                      rejected_case{
                          "VersionAsNumber", R"({"tcp":true,"client_version":3.12})",
                          R"(parameter "client_version" must be a JSON string, got number)"},
                      rejected_case{"FractionalTime", R"({"tcp":true,"time":1.5})",
                                    R"(parameter "time" must be a JSON integer)"},
                      rejected_case{"FlagAsBoolean", R"({"udp":true,"dont_fragment":true})",
                                    R"(parameter "dont_fragment" must be a JSON number)"},
                      rejected_case{"ParallelAsNull", R"({"tcp":true,"parallel":null})",
                                    R"(parameter "parallel" must be a JSON number, got null)"}),
    [](const auto& test) { return std::string(test.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Garbage, RejectedParams,
    ::testing::Values(rejected_case{"NotJson", "GET / HTTP/1.1\r\n",
                                    "parameter message is not valid JSON"},
                      rejected_case{"Truncated", R"({"tcp":true,"time":)", "not valid JSON"},
                      rejected_case{"Array", "[1,2]", "must be a JSON object, got array"},
                      rejected_case{"Empty", "", "empty parameter message"}),
    [](const auto& test) { return std::string(test.param.name); });

TEST(DecodeParams, Uint64MaxReadsAsMinusOne) {
  // 3.12's cJSON prints -1 as 18446744073709551615; it must read as -1, here out of range.
  EXPECT_THAT(protocol_error_of(R"({"tcp":true,"time":18446744073709551615})"),
              HasSubstr(R"("time" = -1 is outside 0..86400)"));
  EXPECT_THAT(protocol_error_of(R"({"tcp":true,"num":18446744073709551615})"),
              HasSubstr(R"("num" = -1 must be at least 0)"));
  // Beyond uint64 nlohmann reads a double; still >= 2^63, still -1.
  EXPECT_THAT(protocol_error_of(R"({"tcp":true,"num":1e20})"), HasSubstr(R"("num" = -1)"));
}

TEST(DecodeParams, RejectsMessagesOverTheLimit) {
  std::string json = R"({"tcp":true,"title":")";
  json += std::string(max_param_json, 'x');
  json += R"("})";
  EXPECT_THAT(protocol_error_of(json), HasSubstr("exceeds the 8192-byte limit"));
}

}  // namespace
