// iperf3 -J writer and reader. The writer's layout is checked against real iperf3 3.12 output
// captured on loopback (hil/tests/data/iperf3-3.12-*.json: `iperf3 -s -1 -J` and
// `iperf3 -c 127.0.0.1 -t 2 -J` with -u -b 10M, -R, --bidir -P 2, -u -b 10M -P 2 -R, and a refused
// connection); the reader on those captures and on the quirks of stock output (trailing text,
// unsigned -1, nan, error-only documents).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "hil/report/iperf3_json.hpp"
#include "hil/tests/test_data.hpp"

namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using namespace hil::measure;
using hil::report::iperf3_summary;
using hil::report::parse_iperf3_json;
using hil::report::to_iperf3_json;
using nlohmann::json;

constexpr std::string_view k_version = "0.1.0";
constexpr std::string_view k_system = "Linux board 6.1.0 #1 SMP PREEMPT aarch64";

std::string fixture(std::string_view name) { return hil::test::test_data(std::string(name)); }

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

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

json ours(const test_result& r) { return to_iperf3_json(r, k_version, k_system); }

// --- hand-built results ------------------------------------------------------------------------

test_result base_result(protocol proto) {
  test_result r;
  r.spec.proto = proto;
  r.spec.duration = std::chrono::seconds{2};
  r.remote_host = "192.168.1.195";
  r.remote_port = 5002;
  r.cookie = std::string("i5hdv6sbzpqa375a6ts3yvfqp6ooqajubbl4") + '\0';  // as on the wire
  r.started = std::chrono::system_clock::time_point{std::chrono::seconds{1796020870}};
  r.tcp_mss = 1448;
  r.sndbuf_actual = 16384;
  r.rcvbuf_actual = 131072;
  r.local_cpu = {94.5, 1.5, 93.0};
  r.remote_cpu = {35.25, 1.25, 34.0};
  return r;
}

void connect(test_result& r, int id, int socket) {
  r.connected.push_back({id, socket, "192.168.1.10", 40560 + id, "192.168.1.195", 5002});
}

stream_interval sample(int id, bool sender, double start_s, std::uint64_t bytes) {
  stream_interval s;
  s.id = id;
  s.sender = sender;
  s.start_s = start_s;
  s.end_s = start_s + 1.0;
  s.bytes = bytes;
  return s;
}

stream_interval tcp_sent(int id, double start_s, std::uint64_t bytes, std::int64_t retransmits) {
  stream_interval s = sample(id, true, start_s, bytes);
  s.retransmits = retransmits;
  s.snd_cwnd_bytes = 1047728;
  s.snd_wnd_bytes = 3145728;
  s.rtt_us = 83;
  s.rttvar_us = 33;
  s.pmtu = 1500;
  return s;
}

stream_totals totals(std::uint64_t bytes, double seconds, std::int64_t retransmits = -1) {
  stream_totals t;
  t.bytes = bytes;
  t.seconds = seconds;
  t.retransmits = retransmits;
  return t;
}

// iperf3 -c … -t 2: one TCP stream the client sends.
test_result tcp_client() {
  test_result r = base_result(protocol::tcp);
  connect(r, 1, 5);
  r.intervals = {{{tcp_sent(1, 0.0, 117625000, 49)}}, {{tcp_sent(1, 1.0, 117375000, 109)}}};
  stream_result s{1, true, totals(235000000, 2.0, 158), totals(234881024, 2.0004)};
  s.sender.max_snd_cwnd_bytes = 1047728;
  s.sender.max_snd_wnd_bytes = 3145728;
  s.sender.max_rtt_us = 104;
  s.sender.min_rtt_us = 83;
  s.sender.mean_rtt_us = 93;
  r.streams = {s};
  r.sender_congestion = "cubic";
  r.receiver_congestion = "bbr";
  return r;
}

// iperf3 -c … -u -b 100M -l 548 -t 2: the procedure's MTU 576 tier. 6 datagrams were lost in gaps
// and 4 more after the last one received (never counted), so the highest sequence seen is 45616.
test_result udp_client() {
  test_result r = base_result(protocol::udp);
  r.spec.bitrate_bps = 100'000'000;
  r.spec.block_len = 548;
  connect(r, 1, 5);
  stream_interval first = sample(1, true, 0.0, 22806ULL * 548);
  first.packets = 22806;
  stream_interval second = sample(1, true, 1.0, 22814ULL * 548);
  second.packets = 22814;
  r.intervals = {{{first}}, {{second}}};
  stream_result s{1, true, totals(45620ULL * 548, 2.0), totals(45610ULL * 548, 2.0003)};
  s.sender.packets = 45620;
  s.receiver.packets = 45616;
  s.receiver.errors = 6;
  s.receiver.jitter_s = 0.000021;
  s.receiver.out_of_order = 1;
  r.streams = {s};
  return r;
}

// iperf3 -c … -R -t 2: the server sends; its TCP_INFO extremes are not exchanged.
test_result reverse_client() {
  test_result r = base_result(protocol::tcp);
  r.spec.reverse = true;
  connect(r, 1, 5);
  r.intervals = {{{sample(1, false, 0.0, 1681915798)}}, {{sample(1, false, 1.0, 1671036928)}}};
  r.streams = {{1, false, totals(3354132480, 2.002503, 35), totals(3352952726, 2.000036)}};
  r.sender_congestion = "bbr";
  r.receiver_congestion = "bbr";
  return r;
}

// iperf3 -c … --bidir -P 2 -t 2: ids 1 and 3 go client -> server, 4 and 5 come back. The end
// results are deliberately out of order; the writer must list 1, 3, then 4, 5.
test_result bidir_client() {
  test_result r = base_result(protocol::tcp);
  r.spec.bidirectional = true;
  r.spec.parallel = 2;
  connect(r, 1, 5);
  connect(r, 3, 7);
  connect(r, 4, 9);
  connect(r, 5, 12);
  for (const double start : {0.0, 1.0}) {
    r.intervals.push_back(
        {{tcp_sent(1, start, 95630131, 0), tcp_sent(3, start, 95630131, 0),
          sample(4, false, start, 903872512), sample(5, false, start, 903872512)}});
  }
  r.streams = {{4, false, totals(1847500000, 2.0, 12), totals(1845000000, 2.0)},
               {1, true, totals(192750000, 2.0, 0), totals(187000000, 2.0)},
               {5, false, totals(1847500000, 2.0, 4), totals(1845000000, 2.0)},
               {3, true, totals(192750000, 2.0, 0), totals(187000000, 2.0)}};
  r.sender_congestion = "cubic";
  r.receiver_congestion = "cubic";
  return r;
}

// The same test seen from the server: every stream's direction flips for the local end.
test_result as_server(test_result r) {
  r.is_client = false;
  r.remote_port = 40560;
  for (auto& c : r.connected) std::swap(c.local_port, c.remote_port);
  for (auto& sample_ : r.intervals) {
    for (auto& s : sample_.streams) s.sender = !s.sender;
  }
  for (auto& s : r.streams) s.local_sends = !s.local_sends;
  std::swap(r.local_cpu, r.remote_cpu);
  return r;
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
