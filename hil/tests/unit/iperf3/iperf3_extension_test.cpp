// The hilperf extension's messages (hil/iperf3/extension.hpp): what a stock server makes of a
// request, round trips, and every malformed field named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

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
  EXPECT_EQ(r->version, 3);
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

TEST(IperfExtension, AnotherVersionIsRefusedWithTheReason) {
  for (const int version : {1, 2, 4}) {
    const auto r = ip::decode_request(
        fmt::format(R"({{"tcp":true,"time":1,"hilperf":{{"version":{}}}}})", version));
    ASSERT_TRUE(r.has_value());
    EXPECT_THAT(ip::validate_request(*r),
                HasSubstr(fmt::format("version {} is not supported", version)));
    EXPECT_THAT(ip::validate_request(*r), HasSubstr("use the same hilperf release on both ends"));
  }
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
  const ip::data_token token{0x9f, 0x86, 0xd0, 0x81, 0x88, 0x4c, 0x7d, 0x65};
  const std::string accept = ip::encode_accept({2, 40123, 40124, token});
  EXPECT_THAT(accept, HasSubstr(R"("token":"9f86d081884c7d65")"));
  const auto a = ip::decode_accept(accept);
  EXPECT_EQ(a.tcp_port, 40123);
  EXPECT_EQ(a.udp_port, 40124);
  EXPECT_EQ(a.token, token);
  EXPECT_EQ(ip::decode_refuse(ip::encode_refuse("no such workload")), "no such workload");
  const auto res = ip::decode_ext_results(ip::encode_ext_results({12345, 50.5, 10.25, 40.25}));
  EXPECT_EQ(res.transactions, 12345U);
  EXPECT_DOUBLE_EQ(res.cpu_util_system, 40.25);
  EXPECT_THROW((void)ip::decode_accept(R"({"version":2,"tcp_port":0,"udp_port":1})"),
               std::system_error);
}

TEST(IperfExtension, AnAnswerWithoutAWellFormedTokenIsRefusedNamingIt) {
  for (const char* json : {R"({"version":1,"tcp_port":1,"udp_port":1})",
                           R"({"version":2,"tcp_port":1,"udp_port":1,"token":"9f86d0"})",
                           R"({"version":2,"tcp_port":1,"udp_port":1,"token":"9F86D081884C7D65"})",
                           R"({"version":2,"tcp_port":1,"udp_port":1,"token":7})"}) {
    EXPECT_THAT([&] { (void)ip::decode_accept(json); },
                ::testing::ThrowsMessage<std::system_error>(HasSubstr("token")))
        << json;
  }
}

TEST(IperfExtension, HellosAreRecognisedWithTheirTestsTokenAndNothingElse) {
  const ip::data_token token{1, 2, 3, 4, 5, 6, 7, 8};
  for (const auto k :
       {ip::data_kind::rr, ip::data_kind::crr, ip::data_kind::sink, ip::data_kind::source}) {
    EXPECT_EQ(ip::decode_hello(ip::encode_hello(k, token), token), k);
  }
  const auto hello = [](std::array<std::uint8_t, 4> head, const ip::data_token& t) {
    std::array<std::uint8_t, ip::hello_size> h{};
    std::copy(head.begin(), head.end(), h.begin());
    std::copy(t.begin(), t.end(), h.begin() + 4);
    return h;
  };
  EXPECT_TRUE(ip::decode_hello(hello({'H', 'X', 3, 'R'}, token), token).has_value());
  EXPECT_FALSE(ip::decode_hello(hello({'a', 'b', 'c', 'd'}, token), token).has_value());
  EXPECT_FALSE(ip::decode_hello(hello({'H', 'X', 3, 'Z'}, token), token).has_value());
  EXPECT_FALSE(ip::decode_hello(hello({'H', 'X', 1, 'R'}, token), token).has_value());
  EXPECT_FALSE(ip::decode_hello(hello({'H', 'X', 2, 'R'}, token), token).has_value())
      << "version 2's hello";
  const ip::data_token other{1, 2, 3, 4, 5, 6, 7, 9};
  EXPECT_FALSE(ip::decode_hello(hello({'H', 'X', 3, 'R'}, other), token).has_value())
      << "another test's token";
}

TEST(Workload, NamesFollowNetperf) {
  EXPECT_EQ(hil::measure::workload_name(workload::tcp_maerts), "TCP_MAERTS");
  EXPECT_EQ(hil::measure::workload_from_name("udp_rr"), workload::udp_rr);
  EXPECT_FALSE(hil::measure::workload_from_name("TCP_RRR").has_value());
  EXPECT_TRUE(hil::measure::is_request_response(workload::tcp_crr));
  EXPECT_FALSE(hil::measure::is_request_response(workload::udp_stream));
}

}  // namespace
