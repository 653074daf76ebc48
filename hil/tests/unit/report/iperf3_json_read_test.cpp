// iperf3 -J reader (hil/report/iperf3_json.hpp) on real iperf3 3.12 output captured on loopback
// (hil/tests/data/iperf3-3.12-*.json), on our own writer's documents (round trip), and on the
// quirks of stock output (trailing text, unsigned -1, nan, error-only documents).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>
#include <sstream>
#include <string>
#include <system_error>

#include "hil/report/iperf3_json.hpp"
#include "iperf3_results.hpp"

namespace {

using ::testing::HasSubstr;
using namespace hil::measure;
using namespace hil::report::test;
using hil::report::iperf3_summary;
using hil::report::parse_iperf3_json;
using nlohmann::json;

// --- the reader on stock captures --------------------------------------------------------------

struct capture_case {
  const char* name;
  const char* file;
  iperf3_summary want;
};

void PrintTo(const capture_case& c, std::ostream* os) { *os << c.file; }

void expect_summary(const iperf3_summary& got, const iperf3_summary& want) {
  EXPECT_EQ(got.proto, want.proto);
  EXPECT_EQ(got.reverse, want.reverse);
  EXPECT_EQ(got.bidir, want.bidir);
  EXPECT_EQ(got.num_streams, want.num_streams);
  EXPECT_DOUBLE_EQ(got.duration_s, want.duration_s);
  EXPECT_EQ(got.interval_count, want.interval_count);
  EXPECT_EQ(got.sent_bytes, want.sent_bytes);
  EXPECT_EQ(got.received_bytes, want.received_bytes);
  EXPECT_DOUBLE_EQ(got.sent_bps, want.sent_bps);
  EXPECT_DOUBLE_EQ(got.received_bps, want.received_bps);
  EXPECT_EQ(got.retransmits, want.retransmits);
  EXPECT_EQ(got.packets, want.packets);
  EXPECT_EQ(got.lost_packets, want.lost_packets);
  EXPECT_DOUBLE_EQ(got.jitter_ms, want.jitter_ms);
  EXPECT_DOUBLE_EQ(got.lost_percent, want.lost_percent);
  EXPECT_DOUBLE_EQ(got.host_cpu_total, want.host_cpu_total);
  EXPECT_DOUBLE_EQ(got.remote_cpu_total, want.remote_cpu_total);
  EXPECT_EQ(got.error, want.error);
}

constexpr auto tcp = protocol::tcp;
constexpr auto udp = protocol::udp;

// The numbers as the captures hold them (a 3.12 server prints before the results exchange, so
// its sender side is 0 and its retransmits absent). Columns in iperf3_summary's order: proto,
// reverse, bidir, num_streams, duration_s, interval_count, sent_bytes, received_bytes, sent_bps,
// received_bps, retransmits, packets, lost_packets, jitter_ms, lost_percent, host_cpu_total,
// remote_cpu_total, error.
// clang-format off
const capture_case k_captures[] = {
  {"TcpClient", "iperf3-3.12-tcp-client.json", {tcp, false, false, 1, 2.000156, 2, 3380215808,
    3380215808, 13519808686.922421, 13518483978.819729, 55, 0, 0, 0, 0, 94.556473559586436,
    35.26582002583514, ""}},
  {"TcpServer", "iperf3-3.12-tcp-server.json", {tcp, false, false, 1, 2.000352, 3, 0,
    3380215808, 0, 13518483978.819729, -1, 0, 0, 0, 0, 35.26582002583514, 0, ""}},
  {"UdpClient", "iperf3-3.12-udp-client.json", {udp, false, false, 1, 2.000225, 2, 2523136,
    2523136, 10091408.716519391, 10090556.160436394, -1, 77, 0, 0.0306691044160142, 0,
    5.8680286838990554, 0.16231680621312941, ""}},
  {"UdpServer", "iperf3-3.12-udp-server.json", {udp, false, false, 1, 2.000394, 2, 0, 2523136,
    0, 10090556.160436394, -1, 77, 0, 0.030669104416014194, 0, 0.16231680621312941, 0, ""}},
  {"ReverseClient", "iperf3-3.12-reverse-client.json", {tcp, true, false, 1, 2.002503, 2,
    3354132480, 3352952726, 13399760120.209558, 13411569495.749075, 35, 0, 0, 0, 0,
    38.365780517706746, 93.6411058477377, ""}},
  {"ReverseServer", "iperf3-3.12-reverse-server.json", {tcp, true, false, 1, 2.002503, 3,
    3354132480, 0, 13399760120.209558, 0, 35, 0, 0, 0, 0, 93.6411058477377, 0, ""}},
  {"BidirClient", "iperf3-3.12-bidir-P2-client.json", {tcp, false, true, 2, 2.000366, 2,
    2659450880, 2659450880, 10635857158.14006, 10635197896.515352, 8, 0, 0, 0, 0,
    95.9661910135858, 34.79063276054434, ""}},
  {"BidirServer", "iperf3-3.12-bidir-P2-server.json", {tcp, false, true, 2, 2.00049, 3, 0,
    2659450880, 0, 10635197896.515352, -1, 0, 0, 0, 0, 34.79063276054434, 0, ""}},
  {"UdpParallelReverseClient", "iperf3-3.12-udp-P2-reverse-client.json", {udp, true, false, 2,
    2.000284, 2, 5046272, 5046272, 20182222.124458324, 20183816.41956557, -1, 154, 0,
    0.05732359684465873, 0, 0.199024117245842, 5.825408712466992, ""}},
  {"RefusedConnection", "iperf3-3.12-error-refused.json", {tcp, false, false, 0, 0, 0, 0, 0, 0,
    0, -1, 0, 0, 0, 0, 0, 0, "unable to connect to server: Connection refused"}},
};
// clang-format on

class ParseIperf3Json : public ::testing::TestWithParam<capture_case> {};

TEST_P(ParseIperf3Json, GivesTheCapturedNumbers) {
  expect_summary(parse_iperf3_json(fixture(GetParam().file)), GetParam().want);
}

TEST_P(ParseIperf3Json, IgnoresTextAroundTheDocument) {  // esnet/iperf#1143, #1631
  const std::string text = "warning: something to say\n" + fixture(GetParam().file) +
                           "iperf3: error - control socket has closed unexpectedly\n{";
  expect_summary(parse_iperf3_json(text), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(StockCapture, ParseIperf3Json, ::testing::ValuesIn(k_captures),
                         [](const auto& case_info) { return std::string(case_info.param.name); });

// --- the reader on our own output --------------------------------------------------------------

TEST(Iperf3JsonRoundTrip, TcpClientGivesBackWhatWePutIn) {
  expect_summary(parse_iperf3_json(ours(tcp_client()).dump()),
                 {tcp, false, false, 1, 2.0, 2, 235000000, 234881024, 940000000.0,
                  234881024 * 8 / 2.0004, 158, 0, 0, 0, 0, 94.5, 35.25, ""});
}

TEST(Iperf3JsonRoundTrip, UdpClientGivesBackWhatWePutIn) {
  expect_summary(
      parse_iperf3_json(ours(udp_client()).dump(1, '\t')),
      {udp, false, false, 1, 2.0, 2, 45620 * 548, 45610 * 548, 45620.0 * 548 * 4,
       45610.0 * 548 * 8 / 2.0003, -1, 45620, 6, 0.021, 100.0 * 6 / 45620, 94.5, 35.25, ""});
}

TEST(Iperf3JsonRoundTrip, ReverseClientGivesBackWhatWePutIn) {
  expect_summary(
      parse_iperf3_json(ours(reverse_client()).dump()),
      {tcp, true, false, 1, 2.002503, 2, 3354132480, 3352952726, 3354132480.0 * 8 / 2.002503,
       3352952726.0 * 8 / 2.000036, 35, 0, 0, 0, 0, 94.5, 35.25, ""});
}

TEST(Iperf3JsonRoundTrip, BidirClientGivesBackTheForwardDirection) {
  expect_summary(parse_iperf3_json(ours(bidir_client()).dump()),
                 {tcp, false, true, 2, 2.0, 2, 385500000, 374000000, 1542000000.0, 1496000000.0, 0,
                  0, 0, 0, 0, 94.5, 35.25, ""});
}

TEST(Iperf3JsonRoundTrip, AFailedTestGivesBackItsError) {
  test_result r = base_result(protocol::udp);
  r.cookie.clear();
  r.error = "the server is busy running a test. try again later";
  const iperf3_summary s = parse_iperf3_json(ours(r).dump());
  EXPECT_EQ(s.error, r.error);
  EXPECT_EQ(s.interval_count, 0U);
}

// --- the reader on quirks and broken input -----------------------------------------------------

TEST(Iperf3JsonParse, OnlyTheFirstOfTwoDocumentsIsRead) {
  const iperf3_summary s = parse_iperf3_json(fixture("iperf3-3.12-tcp-client.json") +
                                             fixture("iperf3-3.12-udp-client.json"));
  EXPECT_EQ(s.proto, protocol::tcp);
  EXPECT_EQ(s.retransmits, 55);
}

TEST(Iperf3JsonParse, UnsignedMinusOneReadsAsMinusOne) {  // iperf3 3.12/3.13 cJSON %PRIu64
  const std::string text = fixture("iperf3-3.12-tcp-client.json");
  const auto retransmits = [&text](const std::string& value) {
    return parse_iperf3_json(replace_all(text, "\"retransmits\":\t55", "\"retransmits\":" + value))
        .retransmits;
  };
  EXPECT_EQ(retransmits("55"), 55);
  EXPECT_EQ(retransmits("18446744073709551615"), -1);
  EXPECT_EQ(retransmits("9223372036854775808"), -1);
  EXPECT_EQ(retransmits("1.8446744073709552e19"), -1);
}

TEST(Iperf3JsonParse, BareNanReadsAsZeroAndStringsAreLeftAlone) {  // esnet/iperf#826
  const std::string text = replace_all(fixture("iperf3-3.12-udp-client.json"),
                                       "\"lost_percent\":\t0", "\"lost_percent\":\t-nan");
  const iperf3_summary s = parse_iperf3_json(text);
  EXPECT_EQ(s.lost_percent, 0.0);
  EXPECT_EQ(s.packets, 77);
  const std::string error = R"({"error": "nan \"inf\" information", "end": {"x": nan}})";
  EXPECT_EQ(parse_iperf3_json(error).error, R"(nan "inf" information)");
}

TEST(Iperf3JsonParse, AnErrorOnlyDocumentGivesItsError) {
  const iperf3_summary s =
      parse_iperf3_json(R"({"error": "the server is busy running a test. try again later"})");
  EXPECT_EQ(s.error, "the server is busy running a test. try again later");
  EXPECT_EQ(s.interval_count, 0U);
  EXPECT_EQ(s.sent_bytes, 0U);
}

void expect_protocol_error(const std::string& text, std::string_view needle) {
  try {
    (void)parse_iperf3_json(text);
    ADD_FAILURE() << "no exception for: " << text.substr(0, 80);
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::make_error_code(std::errc::protocol_error));
    EXPECT_THAT(e.what(), HasSubstr(std::string(needle)));
  }
}

TEST(Iperf3JsonParse, MalformedInputNamesWhatIsMissing) {
  const std::string tcp_text = fixture("iperf3-3.12-tcp-client.json");
  expect_protocol_error("", "no JSON object");
  expect_protocol_error("iperf3: error - unable to connect to server", "no JSON object");
  expect_protocol_error(R"({"start": {"test_start": )", "not valid JSON");
  expect_protocol_error("{}", "\"start\" is missing");
  expect_protocol_error(R"({"start": {}})", "\"start.test_start\" is missing");
  expect_protocol_error(R"({"start": []})", "\"start\" is not an object");
  expect_protocol_error(replace_all(tcp_text, "\"sum_sent\"", "\"sum_snet\""),
                        "\"end.sum_sent\" is missing");
  expect_protocol_error(replace_all(tcp_text, "\"TCP\"", "\"SCTP\""), "neither TCP nor UDP");
  expect_protocol_error(replace_all(tcp_text, "\"bytes\":\t3380215808", "\"bytes\":\t\"many\""),
                        "\"end.sum_sent.bytes\" is not a number");
  expect_protocol_error(replace_all(tcp_text, "\"intervals\"", "\"interval\""),
                        "\"intervals\" is missing");
}

// Found by fuzz/iperf3_json.cpp: a stream count beyond an int was cast to one and read as a
// negative count; it, and 3.12's unsigned -1, are refused naming the field.
TEST(Iperf3JsonParse, AStreamCountThatIsNoCountIsRefused) {
  const std::string tcp_text = fixture("iperf3-3.12-tcp-client.json");
  for (const auto& [written, read] : std::vector<std::pair<std::string, std::string>>{
           {"440737095510", "440737095510"}, {"18446744073709551615", "-1"}, {"-3", "-3"}}) {
    expect_protocol_error(
        replace_all(tcp_text, "\"num_streams\":\t1", "\"num_streams\":" + written),
        "start.test_start.num_streams " + read + " is no stream count");
  }
}

}  // namespace
