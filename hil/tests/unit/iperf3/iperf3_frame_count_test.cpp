// The hilperf extension's frame count messages (hil/iperf3/frame_count.hpp): the exact bytes of
// each message, round trips of counts up to 2^63 − 1, the frames reassembled from reads of one
// byte, and every malformed or out-of-range field named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include <nlohmann/json.hpp>

#include "hil/iperf3/extension.hpp"
#include "hil/iperf3/frame_count.hpp"
#include "hil/iperf3/params.hpp"
#include "hil/iperf3/wire.hpp"

namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;
namespace ip = hil::iperf3;

constexpr std::uint64_t largest = std::numeric_limits<std::int64_t>::max();

// The message a frame_decoder rebuilds from the frame of json fed one byte per read.
std::string through_one_byte_reads(const std::string& json) {
  const std::string frame = ip::encode_frame(json);
  ip::frame_decoder d(ip::max_param_json, "test message");
  std::size_t taken = 0;
  for (const char c : frame) taken += d.feed(&c, 1);
  EXPECT_EQ(taken, frame.size());
  EXPECT_TRUE(d.complete());
  return d.take();
}

TEST(FrameCount, TheRequestIsAPlainTcpTestWithTheHilperfObjectOfVersion3) {
  const auto text = ip::encode_frame_count_params({4000ms, true});
  EXPECT_EQ(text,
            R"({"tcp":true,"omit":0,"time":4,"num":0,"blockcount":0,"parallel":1,"len":131072,)"
            R"("pacing_timer":1000,"client_version":"3.12","hilperf":{"version":3,)"
            R"("workload":"FRAME_COUNT","duration_ms":4000,"count":"xdp"}})");
  const auto plain = ip::decode_params(text);  // what a stock server reads
  EXPECT_EQ(plain.proto, hil::measure::protocol::tcp);
  EXPECT_EQ(plain.duration, 4s);
  const auto r = ip::decode_request(text);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->version, 3);
  ASSERT_TRUE(r->frames.has_value());
  EXPECT_EQ(r->frames->duration, 4000ms);
  EXPECT_TRUE(r->frames->xdp);
  EXPECT_EQ(ip::validate_request(*r), "");
  const auto socket = ip::decode_request(ip::encode_frame_count_params({1ms, false}));
  ASSERT_TRUE(socket && socket->frames);
  EXPECT_FALSE(socket->frames->xdp);
}

TEST(FrameCount, AVersion2RequestIsRefusedNamingBothVersions) {
  const auto r = ip::decode_request(
      R"({"tcp":true,"time":1,"hilperf":{"version":2,"workload":"FRAME_COUNT","duration_ms":1}})");
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->frames.has_value()) << "another version's fields are not read";
  const auto why = ip::validate_request(*r);
  EXPECT_THAT(why, HasSubstr("version 2 is not supported"));
  EXPECT_THAT(why, HasSubstr("speaks version 3"));
}

TEST(FrameCount, MalformedRequestFieldsAreNamed) {
  const auto request = [](const std::string& fields) {
    return R"({"tcp":true,"time":1,"hilperf":{"version":3,"workload":"FRAME_COUNT")" + fields +
           "}}";
  };
  for (const auto& [fields, named] : std::vector<std::pair<std::string, std::string>>{
           {"", "\"duration_ms\" is missing"},
           {R"(,"duration_ms":0)", "\"duration_ms\" = 0 is outside 1..86400000"},
           {R"(,"duration_ms":86400001)", "outside 1..86400000"},
           {R"(,"duration_ms":"1")", "duration_ms"},
           {R"(,"duration_ms":1,"count":"nic")", R"("count" = "nic" is neither)"},
           {R"(,"duration_ms":1,"count":1)", "count"}}) {
    EXPECT_THAT([&] { (void)ip::decode_request(request(fields)); },
                ::testing::ThrowsMessage<std::system_error>(HasSubstr(named)))
        << fields;
  }
}

TEST(FrameCount, TheAcceptHasItsExactBytesAndSurvivesOneByteReads) {
  const ip::frame_count_accept xdp{3, 40124, ip::count_method::xdp, "native", ""};
  const auto text = ip::encode_count_accept(xdp);
  EXPECT_EQ(text,
            R"({"attach_mode":"native","count":"xdp","udp_port":40124,"version":3,"why":""})");
  const auto back = ip::decode_count_accept(through_one_byte_reads(text));
  EXPECT_EQ(back.version, 3);
  EXPECT_EQ(back.udp_port, 40124);
  EXPECT_EQ(back.method, ip::count_method::xdp);
  EXPECT_EQ(back.attach_mode, "native");
  EXPECT_EQ(back.why, "");

  const ip::frame_count_accept socket{3, 1, ip::count_method::socket, "",
                                      "XDP needs CAP_NET_ADMIN and CAP_BPF (run as root)"};
  const auto fallback = ip::decode_count_accept(ip::encode_count_accept(socket));
  EXPECT_EQ(fallback.method, ip::count_method::socket);
  EXPECT_EQ(fallback.why, socket.why);
}

TEST(FrameCount, ResultsCarryExactCountsUpTo2To63Minus1) {
  ip::frame_count_result r;
  r.method = ip::count_method::xdp;
  r.attach_mode = "generic";
  r.frames = largest;
  r.bytes = largest - 1;
  r.other_frames = 3;
  r.rx_packets_delta = largest;
  const auto text = ip::encode_count_results(r);
  EXPECT_EQ(
      text,
      R"({"attach_mode":"generic","bytes":9223372036854775806,"count":"xdp",)"
      R"("frames":9223372036854775807,"other_frames":3,"rx_packets_delta":9223372036854775807})");
  const auto back = ip::decode_count_results(through_one_byte_reads(text));
  EXPECT_EQ(back.frames, largest);
  EXPECT_EQ(back.bytes, largest - 1);
  EXPECT_EQ(back.other_frames, 3U);
  ASSERT_TRUE(back.rx_packets_delta.has_value());
  EXPECT_EQ(*back.rx_packets_delta, largest);
  EXPECT_EQ(back.attach_mode, "generic");

  ip::frame_count_result socket;
  socket.frames = 20000;
  socket.bytes = 1280000;
  const auto s = ip::decode_count_results(ip::encode_count_results(socket));
  EXPECT_EQ(s.method, ip::count_method::socket);
  EXPECT_EQ(s.frames, 20000U);
  EXPECT_FALSE(s.rx_packets_delta.has_value()) << "the socket's count has no interface witness";
}

TEST(FrameCount, BadAnswersAndCountsAreNamed) {
  for (const auto& [json, named] : std::vector<std::pair<std::string, std::string>>{
           {R"({"version":3,"count":"xdp"})", "\"udp_port\" is missing"},
           {R"({"version":3,"udp_port":0,"count":"xdp"})", "\"udp_port\" = 0 is outside"},
           {R"({"version":3,"udp_port":65536,"count":"xdp"})", "outside 1..65535"},
           {R"({"version":3,"udp_port":1})", "\"count\" is missing"},
           {R"({"version":3,"udp_port":1,"count":"XDP"})", "neither"},
           {R"([1])", "frame count answer"}}) {
    EXPECT_THAT([&] { (void)ip::decode_count_accept(json); },
                ::testing::ThrowsMessage<std::system_error>(HasSubstr(named)))
        << json;
  }
  for (const auto& [json, named] : std::vector<std::pair<std::string, std::string>>{
           {R"({"count":"xdp","bytes":0,"other_frames":0})", "\"frames\" is missing"},
           {R"({"count":"xdp","frames":-1,"bytes":0,"other_frames":0})", "\"frames\" = -1"},
           {R"({"count":"xdp","frames":1.5,"bytes":0,"other_frames":0})", "frames"},
           // 2^64 − 1 reads as −1 (wire.hpp's get_int): out of range, not a huge count.
           {R"({"count":"xdp","frames":18446744073709551615,"bytes":0,"other_frames":0})",
            "\"frames\" = -1"},
           {R"({"count":"xdp","frames":1,"bytes":0,"other_frames":0,"rx_packets_delta":-2})",
            "rx_packets_delta"}}) {
    EXPECT_THAT([&] { (void)ip::decode_count_results(json); },
                ::testing::ThrowsMessage<std::system_error>(HasSubstr(named)))
        << json;
  }
  const std::string huge(5000, ' ');
  EXPECT_THAT([&] { (void)ip::decode_count_results("{\"count\":\"xdp\"" + huge + "}"); },
              ::testing::ThrowsMessage<std::system_error>(HasSubstr("frame count results")));
}

}  // namespace
