// Golden bytes of netperf 2.7's omni control messages, captured on loopback between stock netperf
// 2.7.0 and netserver 2.7.0 (x86-64) with `netperf -H 127.0.0.1 -t <TEST> -l 2` (UDP_STREAM with
// `-- -m 1472`, TCP_RR_ipv6 with `-H ::1 -6`). Each hil/tests/data/netperf-2.7.0-<TEST>-*.hex
// holds one 656-byte message and, in its comment, what netperf printed for that run; the layout
// is in hil/netperf/omni.hpp and docs/netserver-protocol.md.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "hil/netperf/omni.hpp"

namespace {

using hil::measure::workload;
using ::testing::HasSubstr;
namespace np = hil::netperf;

// The message in hil/tests/data/netperf-2.7.0-<test>-<kind>.hex: hex byte pairs, '#' comments.
std::vector<std::uint8_t> captured(const std::string& test, const std::string& kind) {
  const std::string path =
      std::string(HIL_SOURCE_DIR) + "/hil/tests/data/netperf-2.7.0-" + test + "-" + kind + ".hex";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::vector<std::uint8_t> bytes;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string pair;
    while (words >> pair) bytes.push_back(static_cast<std::uint8_t>(std::stoul(pair, nullptr, 16)));
  }
  EXPECT_EQ(bytes.size(), np::message_size) << path;
  return bytes;
}

void put_be32(std::vector<std::uint8_t>& m, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) m[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

template <typename F>
std::string protocol_error_of(F&& f) {
  try {
    f();
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::protocol_error) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no std::system_error thrown";
  return {};
}

// ---- the request -------------------------------------------------------------------------------

struct capture_case {
  std::string name;  // the gtest parameter's name
  std::string test;  // the capture's name
  workload kind;
  int family;
  std::uint16_t netperf_port;  // netperf's data socket port in that capture
  std::uint16_t data_port;     // the port netserver answered with
};
void PrintTo(const capture_case& c, std::ostream* os) { *os << c.test; }

const std::vector<capture_case> captures = {
    {"TcpStream", "TCP_STREAM", workload::tcp_stream, 4, 45203, 35129},
    {"TcpMaerts", "TCP_MAERTS", workload::tcp_maerts, 4, 43647, 39127},
    {"UdpStream", "UDP_STREAM", workload::udp_stream, 4, 54253, 58157},
    {"TcpRr", "TCP_RR", workload::tcp_rr, 4, 46297, 44609},
    {"TcpCrr", "TCP_CRR", workload::tcp_crr, 4, 64189, 41613},
    {"UdpRr", "UDP_RR", workload::udp_rr, 4, 49155, 56736},
    {"TcpRrIpv6", "TCP_RR_ipv6", workload::tcp_rr, 6, 40239, 41459},
};

class OmniCapture : public ::testing::TestWithParam<capture_case> {};

TEST_P(OmniCapture, RequestMatchesNetperfByteForByte) {
  const auto& c = GetParam();
  np::omni_request r;
  r.kind = c.kind;
  r.test_length_s = 2;
  r.family = c.family;
  r.netperf_port = c.netperf_port;  // informational; netperf's own port, so every byte compares
  const np::message ours = np::encode_request(r);
  const auto theirs = captured(c.test, "request");
  ASSERT_EQ(theirs.size(), ours.size());
  // send_width (msg+24) and recv_width (msg+48) are netperf's own ring depths, which it passes
  // along; we send 0 and netserver picks its own. Every other byte is the same.
  for (std::size_t at = 0; at < ours.size(); ++at) {
    if ((at >= 24 && at < 28) || (at >= 48 && at < 52)) continue;
    EXPECT_EQ(ours[at], theirs[at]) << c.test << " request, msg+" << at;
  }
  EXPECT_EQ(ours[24] | ours[25] | ours[26] | ours[27], 0);
  EXPECT_EQ(ours[48] | ours[49] | ours[50] | ours[51], 0);
}

TEST_P(OmniCapture, ResponseGivesTheDataPort) {
  const auto& c = GetParam();
  const auto setup = np::decode_response(captured(c.test, "response"));
  EXPECT_EQ(setup.data_port, c.data_port);
}

INSTANTIATE_TEST_SUITE_P(Netperf270, OmniCapture, ::testing::ValuesIn(captures),
                         [](const auto& param_info) { return param_info.param.name; });

TEST(OmniRequest, RrSizesGoOnTheWireStreamTestsSendMinusOne) {
  np::omni_request r;
  r.kind = workload::tcp_rr;
  r.request_size = 200;
  r.response_size = 20000;
  r.test_length_s = 30;
  const auto rr = np::encode_request(r);
  EXPECT_EQ((std::vector<std::uint8_t>{rr[28], rr[29], rr[30], rr[31]}),
            (std::vector<std::uint8_t>{0, 0, 0, 200}));
  EXPECT_EQ((std::vector<std::uint8_t>{rr[52], rr[53], rr[54], rr[55]}),
            (std::vector<std::uint8_t>{0, 0, 0x4e, 0x20}));
  EXPECT_EQ(rr[67], 30) << "test_length at msg+64";
  r.kind = workload::tcp_stream;
  const auto stream = np::encode_request(r);
  for (const std::size_t at : {28U, 52U}) {
    EXPECT_EQ(stream[at], 0xff) << "msg+" << at << ": no RR size for a stream test";
  }
}

TEST(OmniRequest, NoDelayAndSocketBufferAreEncoded) {
  np::omni_request r;
  r.kind = workload::tcp_stream;
  r.socket_buffer = 65536;
  r.no_delay = true;
  const auto m = np::encode_request(r);
  EXPECT_EQ(m[59], 0x21) << "flags: ROUTING_ALLOWED | NO_DELAY";
  EXPECT_EQ(m[9], 0x01) << "send_buf_size 65536 (00 01 00 00) at msg+8";
  EXPECT_EQ(m[33], 0x01) << "recv_buf_size 65536 at msg+32";
}

TEST(OmniRequest, RefusesWhatNetserverCannotRun) {
  const auto invalid = [](np::omni_request r) {
    try {
      (void)np::encode_request(r);
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code(), std::errc::invalid_argument);
      return std::string(e.what());
    }
    ADD_FAILURE() << "no error";
    return std::string();
  };
  np::omni_request r;
  r.test_length_s = 0;
  EXPECT_THAT(invalid(r), HasSubstr("test length 0 s"));
  r.test_length_s = 2;
  r.family = 5;
  EXPECT_THAT(invalid(r), HasSubstr("address family 5"));
  r.family = 4;
  r.kind = workload::udp_rr;
  r.response_size = 0;
  EXPECT_THAT(invalid(r), HasSubstr("at least 1 byte"));
}

// ---- the response: what netperf printed as the remote socket sizes ------------------------------

TEST(OmniResponse, SocketSizesAreWhatNetperfPrinted) {
  // TCP_STREAM "Recv Socket Size bytes 131072".
  const auto stream = np::decode_response(captured("TCP_STREAM", "response"));
  EXPECT_EQ(stream.recv_buf_size, 131072);
  EXPECT_EQ(stream.receive_size, 131072U);
  // TCP_MAERTS "Send Socket Size 16384, Send Message Size 16384".
  const auto maerts = np::decode_response(captured("TCP_MAERTS", "response"));
  EXPECT_EQ(maerts.send_buf_size, 16384);
  EXPECT_EQ(maerts.send_size, 16384U);
  // TCP_RR / TCP_CRR remote line "16384  131072", UDP_RR "212992 212992".
  for (const char* test : {"TCP_RR", "TCP_CRR"}) {
    const auto rr = np::decode_response(captured(test, "response"));
    EXPECT_EQ(rr.send_buf_size, 16384) << test;
    EXPECT_EQ(rr.recv_buf_size, 131072) << test;
    EXPECT_EQ(rr.receive_size, 1U) << test << ": the request size";
    EXPECT_EQ(rr.send_size, 1U) << test << ": the response size";
  }
  const auto udp_rr = np::decode_response(captured("UDP_RR", "response"));
  EXPECT_EQ(udp_rr.send_buf_size, 212992);
  EXPECT_EQ(udp_rr.recv_buf_size, 212992);
  // UDP_STREAM remote line "212992".
  EXPECT_EQ(np::decode_response(captured("UDP_STREAM", "response")).recv_buf_size, 212992);
}

// ---- the results: what netperf printed --------------------------------------------------------

// netperf divides by its own elapsed time, which the capture prints as "2.00" only; netserver's
// elapsed time is within a few hundred microseconds of it, so the remote figure over netserver's
// time matches the printed one within 0.05 %.
constexpr double printed_tolerance = 0.0005;

TEST(OmniResults, TcpStreamBytesAreNetperfsThroughput) {
  const auto r = np::decode_results(captured("TCP_STREAM", "results"));
  EXPECT_EQ(r.bytes_received, 3746689781U);
  EXPECT_EQ(r.recv_calls, 37621U);
  EXPECT_EQ(r.bytes_sent, 0U);
  EXPECT_NEAR(r.elapsed_s, 2.00029, 1e-5);
  EXPECT_EQ(r.recv_buf_size, 7366160) << "autotuned by the end";
  EXPECT_EQ(r.congestion, "bbr");
  EXPECT_FALSE(r.cpu_util.has_value()) << "the CPU words are stale unless netperf asked for them";
  const double mbps = static_cast<double>(r.bytes_received) * 8 / 1e6 / r.elapsed_s;
  EXPECT_NEAR(mbps, 14983.85, 14983.85 * printed_tolerance);
}

TEST(OmniResults, TcpMaertsBytesSentBoundNetperfsThroughput) {
  const auto r = np::decode_results(captured("TCP_MAERTS", "results"));
  EXPECT_EQ(r.bytes_sent, 2548498432U);
  EXPECT_EQ(r.send_calls, 155548U);
  EXPECT_EQ(r.bytes_sent, std::uint64_t{r.send_calls} * 16384) << "whole 16384-byte sends";
  EXPECT_EQ(r.bytes_received, 0U);
  // netperf printed 10169.52 from the bytes it received itself, the FIN's backlog short of these.
  const double mbps = static_cast<double>(r.bytes_sent) * 8 / 1e6 / r.elapsed_s;
  EXPECT_GE(mbps, 10169.52);
  EXPECT_LT(mbps, 10169.52 * 1.01);
}

TEST(OmniResults, UdpStreamRemoteLineIsNetperfs) {
  const auto r = np::decode_results(captured("UDP_STREAM", "results"));
  EXPECT_EQ(r.recv_calls, 168654U) << "printed as the remote 'Okay' count";
  EXPECT_EQ(r.bytes_received, std::uint64_t{168654} * 1472);
  EXPECT_EQ(r.transport_retrans, -1) << "no TCP_INFO for UDP";
  EXPECT_EQ(r.congestion, "");
  const double mbps = static_cast<double>(r.bytes_received) * 8 / 1e6 / r.elapsed_s;
  EXPECT_NEAR(mbps, 992.92, 992.92 * printed_tolerance);
}

TEST(OmniResults, RrTransactionsAreNetperfsRate) {
  struct rr {
    const char* test;
    std::uint32_t transactions;
    double printed_rate;
    const char* congestion;
  };
  for (const rr& c :
       {rr{"TCP_RR", 96860, 48423.49, "bbr"}, rr{"TCP_CRR", 20130, 10064.59, ""},
        rr{"UDP_RR", 118437, 59212.16, ""}, rr{"TCP_RR_ipv6", 84526, 42257.48, "bbr"}}) {
    const auto r = np::decode_results(captured(c.test, "results"));
    EXPECT_EQ(r.transactions, c.transactions) << c.test;
    EXPECT_EQ(r.recv_calls, c.transactions) << c.test << ": one 1-byte request each";
    EXPECT_EQ(r.bytes_sent, c.transactions) << c.test << ": one 1-byte response each";
    EXPECT_EQ(r.congestion, c.congestion) << c.test;
    EXPECT_NEAR(r.transactions / r.elapsed_s, c.printed_rate, c.printed_rate * printed_tolerance)
        << c.test;
  }
}

TEST(OmniResults, CpuFiguresOnlyWhenMeasured) {
  // `netperf -c -C`: netserver printed "100.00" remote utilisation on 2 CPUs.
  const auto r = np::decode_results(captured("TCP_STREAM_cpu", "results"));
  ASSERT_TRUE(r.cpu_util.has_value());
  EXPECT_DOUBLE_EQ(*r.cpu_util, 100.0);
  EXPECT_EQ(r.num_cpus, 2U);
}

TEST(OmniResults, TypeWordIsIgnored) {
  // netserver 2.7 sends the response's type swapped twice (62 00 00 00 on x86): any value goes.
  auto m = captured("TCP_RR", "results");
  put_be32(m, 0, 0xdeadbeef);
  EXPECT_EQ(np::decode_results(m).transactions, 96860U);
}

// ---- malformed input
// -----------------------------------------------------------------------------

TEST(OmniMalformed, WrongSizeNamesTheSize) {
  auto m = captured("TCP_STREAM", "response");
  m.pop_back();
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_response(m); }),
              HasSubstr("response is 655 bytes, not 656"));
  m.resize(657);
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_results(m); }),
              HasSubstr("results is 657 bytes, not 656"));
  EXPECT_THAT(protocol_error_of([] { (void)np::decode_response({}); }), HasSubstr("0 bytes"));
}

TEST(OmniMalformed, ServErrnoIsNetserverRefusing) {
  auto rsp = captured("TCP_STREAM", "response");
  put_be32(rsp, 4, 98);
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_response(rsp); }),
              HasSubstr("netserver refused the test: error 98 (Address already in use)"));
  auto res = captured("TCP_STREAM", "results");
  put_be32(res, 4, 104);
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_results(res); }),
              HasSubstr("netserver refused the test: error 104 (Connection reset by peer)"));
  put_be32(rsp, 4, np::unknown_request_errno);
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_response(rsp); }),
              HasSubstr("error 998 (netserver does not know the request"));
}

TEST(OmniMalformed, ResponseFieldsAreChecked) {
  auto m = captured("TCP_RR", "response");
  put_be32(m, 0, 20);  // TCP_RR_RESPONSE of the legacy tests, not OMNI_RESPONSE
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_response(m); }), HasSubstr("type 20"));
  m = captured("TCP_RR", "response");
  put_be32(m, 52, 0);
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_response(m); }), HasSubstr("data_port 0"));
  put_be32(m, 52, 70000);
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_response(m); }),
              HasSubstr("data_port 70000"));
}

TEST(OmniMalformed, ResultsFieldsAreChecked) {
  auto m = captured("TCP_RR", "results");
  put_be32(m, 48, 0x7fc00000);  // NaN
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_results(m); }), HasSubstr("elapsed_time"));
  put_be32(m, 48, 0xbf800000);  // -1.0
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_results(m); }), HasSubstr("elapsed_time"));
  m = captured("TCP_RR", "results");
  m[276 + 1] = 0x01;  // "b\x01r"
  EXPECT_THAT(protocol_error_of([&] { (void)np::decode_results(m); }),
              HasSubstr("cong_control name with byte 0x01 at position 1"));
}

}  // namespace
