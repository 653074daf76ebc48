// The EXCHANGE_RESULTS JSON. The captured_* strings are the exact bytes Debian's iperf3 3.12
// exchanged on loopback, seen from the client with
//   iperf3 -s -p <port> -1 &
//   strace -f -e trace=read,write -s 100000 iperf3 -c 127.0.0.1 -p <port> <flags>
// (the client's write() after the 4-byte length, and its read() of the server's reply).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <system_error>

#include "hil/iperf3/exchange.hpp"
#include "hil/iperf3/wire.hpp"

namespace {

using ::testing::DoubleEq;
using ::testing::HasSubstr;
using ::testing::Not;
using namespace hil::iperf3;

// `-t 1 -P 2` (TCP, client sends): the client's results, 373 bytes (length 00 00 01 75).
constexpr std::string_view captured_tcp_client =
    R"({"cpu_util_total":6.50890281081965,"cpu_util_user":0,"cpu_util_system":6.50890281081965,)"
    R"("sender_has_retransmits":1,"congestion_used":"bbr","streams":[{"id":1,"bytes":44564480,)"
    R"("retransmits":0,"jitter":0,"errors":0,"packets":0,"start_time":0,"end_time":1.014498},)"
    R"({"id":3,"bytes":44564480,"retransmits":0,"jitter":0,"errors":0,"packets":0,)"
    R"("start_time":0,"end_time":1.014597}]})";

// The same test, the server's (receiver's) results, 451 bytes (00 00 01 c3): -1 printed by 3.12's
// cJSON as 18446744073709551615.
constexpr std::string_view captured_tcp_server =
    R"({"cpu_util_total":2.486625689080026,"cpu_util_user":0.36842533989053233,)"
    R"("cpu_util_system":2.1181022071170665,"sender_has_retransmits":18446744073709551615,)"
    R"("congestion_used":"bbr","streams":[{"id":1,"bytes":44564480,)"
    R"("retransmits":18446744073709551615,"jitter":0,"errors":0,"packets":0,"start_time":0,)"
    R"("end_time":1.018916},{"id":3,"bytes":44564480,"retransmits":18446744073709551615,)"
    R"("jitter":0,"errors":0,"packets":0,"start_time":0,"end_time":1.018918}]})";

// `-u -b 1M -l 64 -t 1 --udp-counters-64bit`: the client's (sender's) results (00 00 01 17).
constexpr std::string_view captured_udp_client =
    R"({"cpu_util_total":15.288258195946739,"cpu_util_user":4.3926574184782066,)"
    R"("cpu_util_system":10.884559451076976,"sender_has_retransmits":0,"streams":[{"id":1,)"
    R"("bytes":124928,"retransmits":18446744073709551615,"jitter":0,"errors":0,"packets":1952,)"
    R"("start_time":0,"end_time":1.000174}]})";

// The same test, the server's (receiver's) results with its jitter in seconds (00 00 01 2d).
constexpr std::string_view captured_udp_server =
    R"({"cpu_util_total":2.5165774387171136,"cpu_util_user":2.5164776497707346,)"
    R"("cpu_util_system":0,"sender_has_retransmits":18446744073709551615,"streams":[{"id":1,)"
    R"("bytes":124928,"retransmits":18446744073709551615,"jitter":1.988156423009045e-05,)"
    R"("errors":0,"packets":1952,"start_time":0,"end_time":1.002097}]})";

std::string replace_all(std::string_view text, const std::string& from, const std::string& to) {
  std::string s(text);
  for (auto pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
  return s;
}

std::string protocol_error_of(std::string_view json) {
  try {
    (void)decode_results(json);
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::protocol_error);
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << json;
  return {};
}

// ---- captured 3.12 messages -------------------------------------------------------------------

TEST(DecodeResults, CapturedTcpSender) {
  const auto r = decode_results(captured_tcp_client);
  EXPECT_THAT(r.cpu_util_total, DoubleEq(6.50890281081965));
  EXPECT_THAT(r.cpu_util_user, DoubleEq(0));
  EXPECT_THAT(r.cpu_util_system, DoubleEq(6.50890281081965));
  EXPECT_EQ(r.sender_has_retransmits, 1);
  EXPECT_EQ(r.congestion_used, "bbr");
  ASSERT_EQ(r.streams.size(), 2U);
  EXPECT_EQ(r.streams[0].id, 1);
  EXPECT_EQ(r.streams[1].id, 3);  // iperf3 skips id 2
  EXPECT_EQ(r.streams[0].bytes, 44564480U);
  EXPECT_EQ(r.streams[0].retransmits, 0);
  EXPECT_THAT(r.streams[0].start_time, DoubleEq(0));
  EXPECT_THAT(r.streams[0].end_time, DoubleEq(1.014498));
  EXPECT_THAT(r.streams[1].end_time, DoubleEq(1.014597));
}

TEST(DecodeResults, CapturedTcpReceiverReadsUint64MaxAsMinusOne) {
  const auto r = decode_results(captured_tcp_server);
  EXPECT_EQ(r.sender_has_retransmits, -1);
  ASSERT_EQ(r.streams.size(), 2U);
  EXPECT_EQ(r.streams[0].retransmits, -1);
  EXPECT_EQ(r.streams[1].retransmits, -1);
  EXPECT_THAT(r.cpu_util_user, DoubleEq(0.36842533989053233));
}

TEST(DecodeResults, CapturedUdpSenderAndReceiver) {
  const auto sender = decode_results(captured_udp_client);
  EXPECT_EQ(sender.sender_has_retransmits, 0);
  EXPECT_TRUE(sender.congestion_used.empty());
  ASSERT_EQ(sender.streams.size(), 1U);
  EXPECT_EQ(sender.streams[0].packets, 1952);
  EXPECT_EQ(sender.streams[0].bytes, 1952U * 64U);
  EXPECT_EQ(sender.streams[0].retransmits, -1);

  const auto receiver = decode_results(captured_udp_server);
  ASSERT_EQ(receiver.streams.size(), 1U);
  EXPECT_THAT(receiver.streams[0].jitter_s, DoubleEq(1.988156423009045e-05));
  EXPECT_EQ(receiver.streams[0].errors, 0);
  EXPECT_EQ(receiver.streams[0].packets, 1952);
  EXPECT_THAT(receiver.streams[0].end_time, DoubleEq(1.002097));
}

TEST(EncodeResults, ReproducesCapturedMessagesByteForByte) {
  // Numbers print as 3.12's cJSON prints them (integral doubles as integers); only -1 differs:
  // we send -1, which every iperf3 version reads as a number.
  EXPECT_EQ(encode_results(decode_results(captured_tcp_client)), captured_tcp_client);
  for (const auto captured : {captured_tcp_server, captured_udp_client, captured_udp_server}) {
    EXPECT_EQ(encode_results(decode_results(captured)),
              replace_all(captured, "18446744073709551615", "-1"));
  }
}

// ---- encode -----------------------------------------------------------------------------------

TEST(EncodeResults, KeysTypesAndOrderAsIperf3) {
  exchange_results r;
  r.cpu_util_total = 12.5;
  r.cpu_util_user = 2;
  r.cpu_util_system = 10.5;
  r.sender_has_retransmits = -1;
  r.streams.push_back({4, 1000, -1, 0.00025, 3, 17, 0, 10.000123, {}, {}});
  EXPECT_EQ(encode_results(r),
            R"({"cpu_util_total":12.5,"cpu_util_user":2,"cpu_util_system":10.5,)"
            R"("sender_has_retransmits":-1,"streams":[{"id":4,"bytes":1000,"retransmits":-1,)"
            R"("jitter":0.00025,"errors":3,"packets":17,"start_time":0,"end_time":10.000123}]})");
}

TEST(EncodeResults, OmittedCountsAsIperf3_14AndLater) {
  // 3.21's send_results(): errors, omitted_errors, packets, omitted_packets, in that order.
  exchange_results r;
  r.streams.push_back({1, 1000, -1, 0, 5, 25897, 0, 2, {}, {}});
  r.streams[0].omitted_errors = 2;
  r.streams[0].omitted_packets = 8633;
  EXPECT_THAT(encode_results(r),
              HasSubstr(R"("jitter":0,"errors":5,"omitted_errors":2,"packets":25897,)"
                        R"("omitted_packets":8633,"start_time":0,"end_time":2})"));
  const auto back = decode_results(encode_results(r));
  EXPECT_EQ(back.streams[0].omitted_errors, 2);
  EXPECT_EQ(back.streams[0].omitted_packets, 8633);
}

TEST(DecodeResults, OmittedCountsComeInPairs) {
  EXPECT_THAT(
      [] {
        (void)decode_results(
            R"({"cpu_util_total":1,"cpu_util_user":0.5,"cpu_util_system":0.5,)"
            R"("sender_has_retransmits":-1,"streams":[{"id":1,"bytes":10,"retransmits":-1,)"
            R"("jitter":0.001,"errors":2,"packets":5,"omitted_packets":0}]})");
      },
      ::testing::ThrowsMessage<std::system_error>(
          HasSubstr("has \"omitted_packets\" without \"omitted_errors\"")));
  // A 3.12 peer sends neither: nothing to subtract is known.
  const auto r = decode_results(
      R"({"cpu_util_total":1,"cpu_util_user":0.5,"cpu_util_system":0.5,)"
      R"("sender_has_retransmits":-1,"streams":[{"id":1,"bytes":10,"retransmits":-1,)"
      R"("jitter":0.001,"errors":2,"packets":5}]})");
  EXPECT_FALSE(r.streams[0].omitted_packets.has_value());
  EXPECT_FALSE(r.streams[0].omitted_errors.has_value());
}

TEST(EncodeResults, CongestionOnlyWhenKnown) {
  exchange_results r;
  r.streams.push_back({});
  EXPECT_THAT(encode_results(r), Not(HasSubstr("omitted")));
  EXPECT_THAT(encode_results(r), Not(HasSubstr("congestion_used")));
  r.congestion_used = "cubic";
  EXPECT_THAT(encode_results(r),
              HasSubstr(R"("sender_has_retransmits":-1,"congestion_used":"cubic")"));
}

TEST(EncodeResults, EmptyStreamsAndNonFiniteNumbers) {
  exchange_results r;
  r.cpu_util_total = std::numeric_limits<double>::quiet_NaN();
  r.cpu_util_user = std::numeric_limits<double>::infinity();
  EXPECT_EQ(encode_results(r), R"({"cpu_util_total":0,"cpu_util_user":0,"cpu_util_system":0,)"
                               R"("sender_has_retransmits":-1,"streams":[]})");
  EXPECT_TRUE(decode_results(encode_results(r)).streams.empty());
}

TEST(EncodeResults, RoundTrips) {
  exchange_results r;
  r.cpu_util_total = 99.123456789;
  r.cpu_util_user = 0.1;
  r.cpu_util_system = 1e-9;
  r.sender_has_retransmits = 1;
  r.congestion_used = "bbr";
  r.streams.push_back({1, std::numeric_limits<std::int64_t>::max(), 12345, 0, 0, 0, 0, 10, {}, {}});
  r.streams.push_back({3, 0, -1, 1.5e-3, 7, 1LL << 40, 0, 9.999999, {}, {}});
  const auto back = decode_results(encode_results(r));
  EXPECT_EQ(encode_results(back), encode_results(r));
  EXPECT_EQ(back.streams[0].bytes, 9223372036854775807ULL);
  EXPECT_EQ(back.streams[1].packets, 1LL << 40);
  EXPECT_THAT(back.cpu_util_system, DoubleEq(1e-9));
}

// ---- decode: tolerance and rejection ----------------------------------------------------------

TEST(DecodeResults, ToleratesNewerAndServerOnlyKeys) {
  // A 3.14+ peer adds omitted_errors/omitted_packets and prints -1 as -1; a server asked for
  // --get-server-output adds its output; start_time/end_time were absent before 3.2.
  const auto r = decode_results(
      R"({"cpu_util_total":1,"cpu_util_user":0.5,"cpu_util_system":0.5,)"
      R"("sender_has_retransmits":-1,"server_output_text":"Accepted connection...",)"
      R"("server_output_json":{"start":{}},"future_key":[1,2],"streams":[{"id":1,"bytes":10,)"
      R"("retransmits":-1,"jitter":0.001,"errors":2,"omitted_errors":0,"packets":5,)"
      R"("omitted_packets":0}]})");
  ASSERT_EQ(r.streams.size(), 1U);
  EXPECT_EQ(r.streams[0].errors, 2);
  EXPECT_THAT(r.streams[0].start_time, DoubleEq(0));
  EXPECT_THAT(r.streams[0].end_time, DoubleEq(0));
}

class MissingResultsKey : public ::testing::TestWithParam<const char*> {};

TEST_P(MissingResultsKey, IsRejectedNamingTheKey) {
  auto j = nlohmann::json::parse(captured_udp_server);
  const std::string key = GetParam();
  if (j.contains(key)) {
    j.erase(key);
  } else {
    j["streams"][0].erase(key);
  }
  const std::string what = protocol_error_of(j.dump());
  EXPECT_THAT(what, HasSubstr("unable to receive results"));
  EXPECT_THAT(what, HasSubstr("\"" + key + "\""));
}

INSTANTIATE_TEST_SUITE_P(RequiredKeys, MissingResultsKey,
                         ::testing::Values("cpu_util_total", "cpu_util_user", "cpu_util_system",
                                           "sender_has_retransmits", "streams", "id", "bytes",
                                           "retransmits", "jitter", "errors", "packets"));

TEST(DecodeResults, WrongTypesNameTheKey) {
  EXPECT_THAT(protocol_error_of(
                  replace_all(captured_udp_server, R"("bytes":124928)", R"("bytes":"124928")")),
              HasSubstr(R"(results stream #1 "bytes" must be a JSON number, got string)"));
  EXPECT_THAT(protocol_error_of(replace_all(captured_udp_server, R"("cpu_util_system":0)",
                                            R"("cpu_util_system":null)")),
              HasSubstr(R"(results message "cpu_util_system" must be a JSON number, got null)"));
  EXPECT_THAT(protocol_error_of(
                  replace_all(captured_udp_server, R"("streams":[)", R"("streams":{"x":[)") + "}"),
              HasSubstr(R"("streams" must be a JSON array, got object)"));
  EXPECT_THAT(protocol_error_of(R"({"cpu_util_total":1,"cpu_util_user":0,"cpu_util_system":0,)"
                                R"("sender_has_retransmits":0,"streams":[7]})"),
              HasSubstr("results stream #1 must be a JSON object, got number"));
  EXPECT_THAT(protocol_error_of(replace_all(captured_udp_server, R"("id":1)", R"("id":1.5)")),
              HasSubstr(R"("id" must be a JSON integer)"));
  EXPECT_THAT(
      protocol_error_of(replace_all(captured_udp_server, R"("id":1)", R"("id":4294967296)")),
      HasSubstr("does not fit an int"));
  EXPECT_THAT(
      protocol_error_of(replace_all(captured_udp_server, R"("bytes":124928)", R"("bytes":-3)")),
      HasSubstr(R"("bytes" = -3 is negative)"));
}

TEST(DecodeResults, GarbageIsRejectedClearly) {
  EXPECT_THAT(protocol_error_of("not json at all"), HasSubstr("results message is not valid JSON"));
  EXPECT_THAT(protocol_error_of(captured_tcp_client.substr(0, 100)), HasSubstr("not valid JSON"));
  EXPECT_THAT(protocol_error_of(R"("a string")"), HasSubstr("must be a JSON object, got string"));
  EXPECT_THAT(protocol_error_of(""), HasSubstr("empty results message"));
}

TEST(DecodeResults, FramedCapturedMessageSplitAtEveryByte) {
  const std::string frame = encode_frame(captured_tcp_server);
  EXPECT_EQ(frame.substr(0, 4), std::string("\x00\x00\x01\xc3", 4));  // as captured
  for (std::size_t split = 0; split <= frame.size(); ++split) {
    frame_decoder d(max_results_json, "results message");
    d.feed(frame.data(), split);
    d.feed(frame.data() + split, frame.size() - split);
    ASSERT_TRUE(d.complete()) << "split " << split;
    EXPECT_EQ(decode_results(d.take()).streams.size(), 2U);
  }
}

}  // namespace
