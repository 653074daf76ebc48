// iperf3 -J writer (hil/report/iperf3_json.hpp). Its layout is checked against real iperf3 3.12
// output captured on loopback (hil/tests/data/iperf3-3.12-*.json: `iperf3 -s -1 -J` and
// `iperf3 -c 127.0.0.1 -t 2 -J` with -u -b 10M, -R, --bidir -P 2, -u -b 10M -P 2 -R, and a refused
// connection): the shape of each document, where each "sender" flag sits, and the values.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <utility>

#include "hil/report/iperf3_json.hpp"
#include "iperf3_results.hpp"

namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using namespace hil::measure;
using namespace hil::report::test;
using nlohmann::json;

// The structure of a document: keys, array lengths and kinds of values (a number is a number,
// whether iperf3 printed it as 0 or 0.5).
json shape(const json& j) {
  if (j.is_object()) {
    json out = json::object();
    for (const auto& [key, value] : j.items()) out[key] = shape(value);
    return out;
  }
  if (j.is_array()) {
    json out = json::array();
    for (const auto& value : j) out.push_back(shape(value));
    return out;
  }
  if (j.is_number()) return "number";
  if (j.is_boolean()) return "boolean";
  return j.is_string() ? "string" : "null";
}

// A document's shape where ours and stock 3.12 must agree: start, the first interval, end.
json comparable_shape(json doc) {
  doc["start"]["test_start"].erase("bidir");  // iperf3 3.13 added it; 3.12 consumers ignore it
  return shape({{"start", doc["start"]}, {"interval", doc["intervals"][0]}, {"end", doc["end"]}});
}

// --- the writer: shape against stock 3.12 ------------------------------------------------------

TEST(Iperf3JsonShape, TcpClientMatchesStock) {
  EXPECT_EQ(comparable_shape(ours(tcp_client())),
            comparable_shape(json::parse(fixture("iperf3-3.12-tcp-client.json"))));
}

TEST(Iperf3JsonShape, UdpClientMatchesStock) {
  EXPECT_EQ(comparable_shape(ours(udp_client())),
            comparable_shape(json::parse(fixture("iperf3-3.12-udp-client.json"))));
}

TEST(Iperf3JsonShape, UdpServerMatchesStock) {
  EXPECT_EQ(comparable_shape(ours(as_server(udp_client()))),
            comparable_shape(json::parse(fixture("iperf3-3.12-udp-server.json"))));
}

TEST(Iperf3JsonShape, ReverseClientMatchesStock) {
  EXPECT_EQ(comparable_shape(ours(reverse_client())),
            comparable_shape(json::parse(fixture("iperf3-3.12-reverse-client.json"))));
}

TEST(Iperf3JsonShape, ReverseServerMatchesStock) {
  test_result r = as_server(reverse_client());
  r.receiver_congestion.clear();  // a 3.12 server prints before it learns the client's
  EXPECT_EQ(comparable_shape(ours(r)),
            comparable_shape(json::parse(fixture("iperf3-3.12-reverse-server.json"))));
}

TEST(Iperf3JsonShape, BidirClientMatchesStock) {
  EXPECT_EQ(comparable_shape(ours(bidir_client())),
            comparable_shape(json::parse(fixture("iperf3-3.12-bidir-P2-client.json"))));
}

TEST(Iperf3JsonShape, NeverConnectedErrorMatchesStock) {
  test_result r = base_result(protocol::tcp);
  r.cookie.clear();
  r.error = "unable to connect to server: Connection refused";
  const json doc = ours(r);
  EXPECT_EQ(shape(doc), shape(json::parse(fixture("iperf3-3.12-error-refused.json"))));
  EXPECT_EQ(doc["error"], r.error);
  EXPECT_TRUE(doc["end"].empty());
}

// Every "sender" flag where it sits: which direction comes first, which sum is whose, and the
// local end's point of view, in every role.
json sender_flags(const json& j) {
  if (j.is_array()) {
    json out = json::array();
    for (const auto& value : j) out.push_back(sender_flags(value));
    return out;
  }
  json out = json::object();
  for (const auto& [key, value] : j.items()) {
    if (key == "sender" && value.is_boolean()) {
      out[key] = value;
    } else if (value.is_structured()) {
      out[key] = sender_flags(value);
    }
  }
  return out;
}

json flags_of(const json& doc) {
  return sender_flags({{"interval", doc["intervals"][0]}, {"end", doc["end"]}});
}

struct role_case {
  const char* name;
  test_result (*build)();
  const char* file;
};

void PrintTo(const role_case& c, std::ostream* os) { *os << c.file; }

test_result tcp_server() { return as_server(tcp_client()); }
test_result udp_server() { return as_server(udp_client()); }
test_result reverse_server() { return as_server(reverse_client()); }
test_result bidir_server() { return as_server(bidir_client()); }

const role_case k_roles[] = {
    {"TcpClient", tcp_client, "iperf3-3.12-tcp-client.json"},
    {"TcpServer", tcp_server, "iperf3-3.12-tcp-server.json"},
    {"UdpClient", udp_client, "iperf3-3.12-udp-client.json"},
    {"UdpServer", udp_server, "iperf3-3.12-udp-server.json"},
    {"ReverseClient", reverse_client, "iperf3-3.12-reverse-client.json"},
    {"ReverseServer", reverse_server, "iperf3-3.12-reverse-server.json"},
    {"BidirClient", bidir_client, "iperf3-3.12-bidir-P2-client.json"},
    {"BidirServer", bidir_server, "iperf3-3.12-bidir-P2-server.json"},
};

class SenderFlags : public ::testing::TestWithParam<role_case> {};

TEST_P(SenderFlags, AreWhereAndWhatStockPutsThem) {
  EXPECT_EQ(flags_of(ours(GetParam().build())), flags_of(json::parse(fixture(GetParam().file))));
}

INSTANTIATE_TEST_SUITE_P(StockCapture, SenderFlags, ::testing::ValuesIn(k_roles),
                         [](const auto& case_info) { return std::string(case_info.param.name); });

// --- the writer: values ------------------------------------------------------------------------

TEST(Iperf3JsonStart, ClientTcpStartHasEveryKeyWithIperf3Types) {
  const json start = ours(tcp_client())["start"];
  EXPECT_EQ(start["connected"], json::parse(R"([{"socket": 5, "local_host": "192.168.1.10",
      "local_port": 40561, "remote_host": "192.168.1.195", "remote_port": 5002}])"));
  EXPECT_EQ(start["version"], "hilperf 0.1.0 (iperf3 3.12 compatible)");
  EXPECT_EQ(start["system_info"], k_system);
  EXPECT_EQ(start["timestamp"]["time"], "Mon, 30 Nov 2026 06:41:10 GMT");
  EXPECT_EQ(start["timestamp"]["timesecs"], 1796020870);
  EXPECT_EQ(start["connecting_to"], json::parse(R"({"host": "192.168.1.195", "port": 5002})"));
  EXPECT_FALSE(start.contains("accepted_connection"));
  EXPECT_EQ(start["cookie"], "i5hdv6sbzpqa375a6ts3yvfqp6ooqajubbl4");
  EXPECT_EQ(start["tcp_mss_default"], 1448);
  EXPECT_EQ(start["target_bitrate"], 0);
  EXPECT_EQ(start["sock_bufsize"], 0);
  EXPECT_EQ(start["sndbuf_actual"], 16384);
  EXPECT_EQ(start["rcvbuf_actual"], 131072);
  EXPECT_EQ(start["test_start"], json::parse(R"({"protocol": "TCP", "num_streams": 1,
      "blksize": 131072, "omit": 0, "duration": 2, "bytes": 0, "blocks": 0, "reverse": 0,
      "tos": 0, "target_bitrate": 0, "bidir": 0})"));
  EXPECT_TRUE(start["test_start"]["reverse"].is_number_integer());  // 0/1 like iperf3, not bool
}

TEST(Iperf3JsonStart, ServerReportsTheAcceptedConnectionAndAnMssOverride) {
  test_result r = as_server(tcp_client());
  r.spec.mss = 1400;
  const json start = ours(r)["start"];
  EXPECT_EQ(start["accepted_connection"], json::parse(R"({"host": "192.168.1.195",
      "port": 40560})"));
  EXPECT_FALSE(start.contains("connecting_to"));
  EXPECT_EQ(start["tcp_mss"], 1400);
  EXPECT_FALSE(start.contains("tcp_mss_default"));
}

TEST(Iperf3JsonStart, UdpStartHasTheDefaultsInEffectAndNoMss) {
  test_result r = udp_client();
  r.spec.bitrate_bps = 0;
  r.spec.block_len = 0;
  const json start = ours(r)["start"];
  EXPECT_FALSE(start.contains("tcp_mss_default"));
  EXPECT_EQ(start["target_bitrate"], 1048576);
  EXPECT_EQ(start["test_start"]["protocol"], "UDP");
  EXPECT_EQ(start["test_start"]["blksize"], 1460);
  EXPECT_EQ(start["test_start"]["target_bitrate"], 1048576);
}

TEST(Iperf3JsonStart, TimestampIsRfc1123InGmt) {
  test_result r = tcp_client();
  r.started = std::chrono::system_clock::time_point{std::chrono::seconds{1709251199}} +
              std::chrono::milliseconds{999};
  EXPECT_EQ(ours(r)["start"]["timestamp"]["time"], "Thu, 29 Feb 2024 23:59:59 GMT");
  EXPECT_EQ(ours(r)["start"]["timestamp"]["timesecs"], 1709251199);
  r.started = {};
  EXPECT_EQ(ours(r)["start"]["timestamp"]["time"], "Thu, 01 Jan 1970 00:00:00 GMT");
}

TEST(Iperf3JsonIntervals, TcpSenderStreamAndSumCarryTcpInfo) {
  const json interval = ours(tcp_client())["intervals"][1];
  EXPECT_EQ(interval["streams"][0], json::parse(R"({"socket": 5, "start": 1.0, "end": 2.0,
      "seconds": 1.0, "bytes": 117375000, "bits_per_second": 939000000.0, "retransmits": 109,
      "snd_cwnd": 1047728, "snd_wnd": 3145728, "rtt": 83, "rttvar": 33, "pmtu": 1500,
      "omitted": false, "sender": true})"));
  EXPECT_EQ(interval["sum"], json::parse(R"({"start": 1.0, "end": 2.0, "seconds": 1.0,
      "bytes": 117375000, "bits_per_second": 939000000.0, "retransmits": 109,
      "omitted": false, "sender": true})"));
}

TEST(Iperf3JsonIntervals, UdpReceiverLossIsPerIntervalAndSumJitterIsTheMean) {
  test_result r = as_server(udp_client());
  stream_interval a = sample(1, false, 0.0, 1000);
  a.packets = 100;
  a.lost_packets = 1;
  a.jitter_ms = 0.01;
  stream_interval b = a;
  b.id = 3;
  b.jitter_ms = 0.03;
  r.intervals = {{{a, b}}};
  const json interval = ours(r)["intervals"][0];
  EXPECT_EQ(interval["streams"][0]["lost_percent"], 1.0);
  EXPECT_FALSE(interval["streams"][0].contains("retransmits"));
  EXPECT_DOUBLE_EQ(interval["sum"]["jitter_ms"].get<double>(), 0.02);
  EXPECT_EQ(interval["sum"]["lost_packets"], 2);
  EXPECT_EQ(interval["sum"]["packets"], 200);
  EXPECT_EQ(interval["sum"]["lost_percent"], 1.0);
  EXPECT_EQ(interval["sum"]["sender"], false);
}

TEST(Iperf3JsonIntervals, SamplesWithoutStreamsAreLeftOut) {
  test_result r = tcp_client();
  r.intervals.insert(r.intervals.begin() + 1, interval_sample{});
  EXPECT_EQ(ours(r)["intervals"].size(), 2U);
}

TEST(Iperf3JsonEnd, TcpStreamPutsEachEndsNumbersWhereIperf3Does) {
  const json end = ours(tcp_client())["end"];
  EXPECT_EQ(end["streams"][0]["sender"], json::parse(R"({"socket": 5, "start": 0, "end": 2.0,
      "seconds": 2.0, "bytes": 235000000, "bits_per_second": 940000000.0, "retransmits": 158,
      "max_snd_cwnd": 1047728, "max_snd_wnd": 3145728, "max_rtt": 104, "min_rtt": 83,
      "mean_rtt": 93, "sender": true})"));
  const json& receiver = end["streams"][0]["receiver"];
  EXPECT_EQ(receiver["end"], 2.0004);   // the receiver's duration…
  EXPECT_EQ(receiver["seconds"], 2.0);  // …but the local end's here, as iperf3 prints it
  EXPECT_EQ(receiver["bits_per_second"], 234881024 * 8 / 2.0004);
  EXPECT_EQ(receiver["sender"], true);
  EXPECT_EQ(end["sum_sent"], json::parse(R"({"start": 0, "end": 2.0, "seconds": 2.0,
      "bytes": 235000000, "bits_per_second": 940000000.0, "retransmits": 158, "sender": true})"));
  EXPECT_EQ(end["sum_received"]["bytes"], 234881024);
  EXPECT_EQ(end["sum_received"]["seconds"], 2.0004);
  EXPECT_FALSE(end["sum_received"].contains("retransmits"));
  EXPECT_EQ(end["cpu_utilization_percent"], json::parse(R"({"host_total": 94.5,
      "host_user": 1.5, "host_system": 93.0, "remote_total": 35.25, "remote_user": 1.25,
      "remote_system": 34.0})"));
  EXPECT_EQ(end["sender_tcp_congestion"], "cubic");
  EXPECT_EQ(end["receiver_tcp_congestion"], "bbr");
}

TEST(Iperf3JsonEnd, UdpLossIsOverTheSendersPackets) {
  const json end = ours(udp_client())["end"];
  const double lost_percent = 100.0 * 6 / 45620;
  const json& udp = end["streams"][0]["udp"];
  EXPECT_EQ(udp["bytes"], 45620 * 548);
  EXPECT_DOUBLE_EQ(udp["jitter_ms"].get<double>(), 0.021);
  EXPECT_EQ(udp["lost_packets"], 6);
  EXPECT_EQ(udp["packets"], 45620);
  EXPECT_EQ(udp["lost_percent"], lost_percent);
  EXPECT_EQ(udp["out_of_order"], 1);
  EXPECT_EQ(udp["sender"], true);
  EXPECT_EQ(end["sum"]["end"], 2.0003);  // legacy sum: receiver time, sender bytes and rate
  EXPECT_EQ(end["sum"]["bytes"], 45620 * 548);
  EXPECT_EQ(end["sum"]["bits_per_second"], 45620.0 * 548 * 8 / 2.0);
  EXPECT_EQ(end["sum"]["packets"], 45620);
  EXPECT_EQ(end["sum"]["lost_percent"], lost_percent);
  EXPECT_EQ(end["sum_sent"]["sender"], true);
  EXPECT_EQ(end["sum_sent"]["jitter_ms"], 0.0);
  EXPECT_EQ(end["sum_sent"]["packets"], 45620);
  EXPECT_EQ(end["sum_received"]["sender"], false);
  EXPECT_EQ(end["sum_received"]["bytes"], 45610 * 548);
  EXPECT_EQ(end["sum_received"]["lost_packets"], 6);
  EXPECT_EQ(end["sum_received"]["packets"], 45616);  // the receiver's highest sequence
  EXPECT_EQ(end["sum_received"]["lost_percent"], lost_percent);
  EXPECT_FALSE(end.contains("sender_tcp_congestion"));
}

TEST(Iperf3JsonEnd, ReverseClientReportsTheRemoteSenderFromTheLocalPointOfView) {
  const json doc = ours(reverse_client());
  EXPECT_EQ(doc["start"]["test_start"]["reverse"], 1);
  const json& stream = doc["intervals"][0]["streams"][0];
  EXPECT_EQ(stream["sender"], false);
  EXPECT_FALSE(stream.contains("retransmits"));
  const json& sender = doc["end"]["streams"][0]["sender"];
  EXPECT_EQ(sender["sender"], false);
  EXPECT_EQ(sender["retransmits"], 35);
  EXPECT_EQ(sender["max_snd_cwnd"], -1);  // not exchanged; stock 3.12 prints 0
  EXPECT_EQ(doc["end"]["sum_sent"]["sender"], false);
  EXPECT_FALSE(doc["end"].contains("sum_sent_bidir_reverse"));
}

TEST(Iperf3JsonEnd, BidirSumsEachDirectionSeparately) {
  const json doc = ours(bidir_client());
  std::vector<int> sockets;
  for (const auto& s : doc["end"]["streams"]) sockets.push_back(s["sender"]["socket"]);
  EXPECT_EQ(sockets, (std::vector<int>{5, 7, 9, 12}));
  EXPECT_EQ(doc["intervals"][0]["sum"]["bytes"], 2 * 95630131);
  EXPECT_EQ(doc["intervals"][0]["sum"]["retransmits"], 0);
  EXPECT_EQ(doc["intervals"][0]["sum_bidir_reverse"]["bytes"], 2 * 903872512);
  const json& end = doc["end"];
  EXPECT_EQ(end["sum_sent"]["bytes"], 385500000);
  EXPECT_EQ(end["sum_received"]["bytes"], 374000000);
  EXPECT_EQ(end["sum_sent_bidir_reverse"]["bytes"], 3695000000);
  EXPECT_EQ(end["sum_sent_bidir_reverse"]["retransmits"], 16);
  EXPECT_EQ(end["sum_received_bidir_reverse"]["bytes"], 3690000000);
}

TEST(Iperf3JsonEnd, MinusOneIsEmittedAsMinusOne) {
  test_result r = tcp_client();
  r.intervals = {{{sample(1, true, 0.0, 1000)}}};  // TCP_INFO unavailable: all -1
  r.streams = {{1, true, totals(1000, 1.0), totals(1000, 1.0)}};
  const json doc = ours(r);
  EXPECT_EQ(doc["intervals"][0]["streams"][0]["rtt"], -1);
  EXPECT_TRUE(doc["intervals"][0]["streams"][0]["rtt"].is_number_integer());
  EXPECT_EQ(doc["intervals"][0]["sum"]["retransmits"], -1);
  EXPECT_EQ(doc["end"]["sum_sent"]["retransmits"], -1);
  EXPECT_THAT(doc.dump(), Not(HasSubstr("18446744073709551615")));
}

TEST(Iperf3JsonEnd, AnErrorAfterTheTestKeepsTheResults) {
  test_result r = tcp_client();
  r.error = "the server has terminated";
  const json doc = ours(r);
  EXPECT_EQ(doc["error"], "the server has terminated");
  EXPECT_EQ(doc["end"]["sum_sent"]["bytes"], 235000000);
  EXPECT_FALSE(ours(tcp_client()).contains("error"));
}

TEST(Iperf3JsonSystemInfo, LocalSystemInfoIsUnameStyle) {
  EXPECT_THAT(hil::report::local_system_info(), StartsWith("Linux "));
}

}  // namespace
