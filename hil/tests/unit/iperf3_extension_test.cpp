// The hilperf extension's messages (hil/iperf3/extension.hpp): what a stock server makes of a
// request, round trips, and every malformed field named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hil/iperf3/extension.hpp"
#include "hil/iperf3/params.hpp"
#include "hil/iperf3/wire.hpp"

namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;
namespace ip = hil::iperf3;
using hil::measure::workload;

hil::measure::rr_spec crr_spec() {
  hil::measure::rr_spec s;
  s.kind = workload::tcp_crr;
  s.request_size = 64;
  s.response_size = 1024;
  s.duration = 2500ms;
  s.load_streams = 2;
  return s;
}

// Replaces one field of the "hilperf" object of a request.
std::string with_field(const std::string& key, const nlohmann::json& value) {
  auto j = nlohmann::json::parse(ip::encode_request_params(crr_spec()));
  j["hilperf"][key] = value;
  return j.dump();
}

TEST(IperfExtension, RequestIsAValidPlainTcpTestForAStockServer) {
  const auto text = ip::encode_request_params(crr_spec());
  const auto plain = ip::decode_params(text);  // what our own (and a stock) server reads
  EXPECT_EQ(plain.proto, hil::measure::protocol::tcp);
  EXPECT_EQ(plain.duration, 3s) << "the duration rounds up to whole seconds";
  EXPECT_EQ(plain.parallel, 1);
  EXPECT_LE(text.size(), ip::max_param_json);
}

TEST(IperfExtension, RequestRoundTrips) {
  const auto r = ip::decode_request(ip::encode_request_params(crr_spec()));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->version, 1);
  EXPECT_EQ(r->spec.kind, workload::tcp_crr);
  EXPECT_EQ(r->spec.request_size, 64U);
  EXPECT_EQ(r->spec.response_size, 1024U);
  EXPECT_EQ(r->spec.duration, 2500ms);
  EXPECT_EQ(r->spec.load_streams, 2);
  EXPECT_EQ(ip::validate_request(*r), "");
}

TEST(IperfExtension, OrdinaryParametersAreNoRequest) {
  EXPECT_FALSE(ip::decode_request(ip::encode_params(hil::measure::test_spec{})).has_value());
}

TEST(IperfExtension, MalformedFieldsAreNamed) {
  EXPECT_THAT(
      [] { (void)ip::decode_request(with_field("workload", "TCP_FOO")); },
      ::testing::ThrowsMessage<std::system_error>(HasSubstr("unknown workload \"TCP_FOO\"")));
  EXPECT_THAT([] { (void)ip::decode_request(with_field("request_size", 0)); },
              ::testing::ThrowsMessage<std::system_error>(HasSubstr("\"request_size\" = 0")));
  EXPECT_THAT([] { (void)ip::decode_request(with_field("response_size", "big")); },
              ::testing::ThrowsMessage<std::system_error>(HasSubstr("response_size")));
  EXPECT_THAT([] { (void)ip::decode_request(with_field("load_streams", 1000)); },
              ::testing::ThrowsMessage<std::system_error>(HasSubstr("load_streams")));
  EXPECT_THAT([] { (void)ip::decode_request(R"({"tcp":true,"hilperf":[1]})"); },
              ::testing::ThrowsMessage<std::system_error>(HasSubstr("not an object")));
}

TEST(IperfExtension, ANewerVersionIsRefusedWithTheReason) {
  const auto r = ip::decode_request(R"({"tcp":true,"time":1,"hilperf":{"version":2}})");
  ASSERT_TRUE(r.has_value());
  EXPECT_THAT(ip::validate_request(*r), HasSubstr("version 2 is not supported"));
}

TEST(IperfExtension, StreamWorkloadsAndHugeDatagramsAreRefused) {
  ip::extension_request r;
  r.spec.kind = workload::tcp_stream;
  EXPECT_THAT(ip::validate_request(r), HasSubstr("runs over plain iperf3"));
  r.spec.kind = workload::udp_rr;
  r.spec.response_size = 70000;
  EXPECT_THAT(ip::validate_request(r), HasSubstr("one datagram"));
}

TEST(IperfExtension, AnswersRoundTrip) {
  const auto a = ip::decode_accept(ip::encode_accept({1, 40123, 40124}));
  EXPECT_EQ(a.tcp_port, 40123);
  EXPECT_EQ(a.udp_port, 40124);
  EXPECT_EQ(ip::decode_refuse(ip::encode_refuse("no such workload")), "no such workload");
  const auto res = ip::decode_ext_results(ip::encode_ext_results({12345, 50.5, 10.25, 40.25}));
  EXPECT_EQ(res.transactions, 12345U);
  EXPECT_DOUBLE_EQ(res.cpu_util_system, 40.25);
  EXPECT_THROW((void)ip::decode_accept(R"({"version":1,"tcp_port":0,"udp_port":1})"),
               std::system_error);
}

TEST(IperfExtension, HellosAreRecognisedAndNothingElse) {
  for (const auto k :
       {ip::data_kind::rr, ip::data_kind::crr, ip::data_kind::sink, ip::data_kind::source}) {
    EXPECT_EQ(ip::decode_hello(ip::encode_hello(k)), k);
  }
  const std::array<std::uint8_t, 4> cookie_start{'a', 'b', 'c', 'd'};
  EXPECT_FALSE(ip::decode_hello(cookie_start).has_value());
  const std::array<std::uint8_t, 4> unknown_kind{'H', 'X', 1, 'Z'};
  EXPECT_FALSE(ip::decode_hello(unknown_kind).has_value());
  const std::array<std::uint8_t, 4> next_version{'H', 'X', 2, 'R'};
  EXPECT_FALSE(ip::decode_hello(next_version).has_value());
}

TEST(Workload, NamesFollowNetperf) {
  EXPECT_EQ(hil::measure::workload_name(workload::tcp_maerts), "TCP_MAERTS");
  EXPECT_EQ(hil::measure::workload_from_name("udp_rr"), workload::udp_rr);
  EXPECT_FALSE(hil::measure::workload_from_name("TCP_RRR").has_value());
  EXPECT_TRUE(hil::measure::is_request_response(workload::tcp_crr));
  EXPECT_FALSE(hil::measure::is_request_response(workload::udp_stream));
}

}  // namespace
