// Golden bytes of iperf3's wire protocol. Unless said otherwise they were captured from Debian's
// iperf3 3.12 on loopback with
//   iperf3 -s -p <port> -1 &
//   strace -f -e trace=read,write,recvfrom -xx -s 2000 iperf3 -c 127.0.0.1 -p <port> ...
// The bytes are described in docs/iperf3-protocol.md: cookie §2, UDP header §5, parameters §6.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "hil/iperf3/wire.hpp"

namespace {

using ::testing::HasSubstr;
using namespace hil::iperf3;

// The 137-byte parameter JSON of `iperf3 -c ... -t 1 -P 2 -R -l 64K` (docs/iperf3-protocol.md §6).
constexpr std::string_view captured_tcp_params =
    R"({"tcp":true,"omit":0,"time":1,"num":0,"blockcount":0,"parallel":2,"reverse":true,)"
    R"("len":65536,"pacing_timer":1000,"client_version":"3.12"})";

std::string bytes(std::initializer_list<std::uint8_t> list) { return {list.begin(), list.end()}; }

template <typename F>
std::system_error expect_protocol_error(F&& f) {
  try {
    f();
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::protocol_error);
    return e;
  }
  ADD_FAILURE() << "no std::system_error thrown";
  return std::system_error(std::error_code());
}

// ---- control states ---------------------------------------------------------------------------

TEST(ControlState, WireBytesMapToTheirStates) {
  EXPECT_EQ(state_from_byte(0x01), state::test_start);
  EXPECT_EQ(state_from_byte(0x02), state::test_running);
  EXPECT_EQ(state_from_byte(0x04), state::test_end);
  EXPECT_EQ(state_from_byte(0x09), state::param_exchange);
  EXPECT_EQ(state_from_byte(0x0a), state::create_streams);
  EXPECT_EQ(state_from_byte(0x0b), state::server_terminate);
  EXPECT_EQ(state_from_byte(0x0c), state::client_terminate);
  EXPECT_EQ(state_from_byte(0x0d), state::exchange_results);
  EXPECT_EQ(state_from_byte(0x0e), state::display_results);
  EXPECT_EQ(state_from_byte(0x10), state::iperf_done);
  EXPECT_EQ(state_from_byte(0xff), state::access_denied);
  EXPECT_EQ(state_from_byte(0xfe), state::server_error);
}

TEST(ControlState, ValuesNeverSentAreRejected) {
  for (const std::uint8_t b : {0, 3, 5, 6, 7, 8, 15, 17, 0x7f, 0x80, 0xfd}) {
    EXPECT_EQ(state_from_byte(b), std::nullopt) << "byte " << int{b};
  }
}

TEST(ControlState, NamesAndBytesFollowIperf3) {
  EXPECT_EQ(state_name(state::param_exchange), "PARAM_EXCHANGE");
  EXPECT_EQ(state_name(state::access_denied), "ACCESS_DENIED");
  EXPECT_EQ(state_name(state::iperf_done), "IPERF_DONE");
  EXPECT_EQ(state_name(static_cast<state>(3)), "UNKNOWN");
  EXPECT_EQ(state_to_byte(state::access_denied), 0xff);
  EXPECT_EQ(state_to_byte(state::server_error), 0xfe);
  EXPECT_EQ(state_to_byte(state::iperf_done), 0x10);
  for (int b = 0; b < 256; ++b) {
    const auto s = state_from_byte(static_cast<std::uint8_t>(b));
    if (s) {
      EXPECT_EQ(state_to_byte(*s), b);
    }
  }
}

// ---- cookie -----------------------------------------------------------------------------------

TEST(Cookie, CapturedCookiesAreValid) {
  // write(4, "clhah7as5pod6rkma7kvy6t4dnpi4upcztes\0", 37) (docs/iperf3-protocol.md §2), and ours.
  EXPECT_TRUE(is_valid_cookie(std::string("clhah7as5pod6rkma7kvy6t4dnpi4upcztes\0", 37)));
  EXPECT_TRUE(is_valid_cookie(std::string("47yqsqn65fbvzuh2ookavv2xnflnfxrngyyu\0", 37)));
}

TEST(Cookie, MalformedCookiesAreRejected) {
  const std::string good("47yqsqn65fbvzuh2ookavv2xnflnfxrngyyu\0", 37);
  EXPECT_FALSE(is_valid_cookie(good.substr(0, 36)));  // NUL missing
  EXPECT_FALSE(is_valid_cookie(good + '\0'));         // 38 bytes
  EXPECT_FALSE(is_valid_cookie(""));
  for (const char bad : {'A', '1', '8', '0', '9', ' ', '\0'}) {
    std::string c = good;
    c[5] = bad;
    EXPECT_FALSE(is_valid_cookie(c)) << "char " << int{bad};
  }
  std::string no_nul = good;
  no_nul[36] = 'a';
  EXPECT_FALSE(is_valid_cookie(no_nul));
}

TEST(Cookie, MadeCookiesAreValidAndSeeded) {
  std::set<std::string> seen;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const std::string c = make_cookie(seed);
    ASSERT_EQ(c.size(), cookie_size);
    EXPECT_EQ(c.back(), '\0');
    EXPECT_TRUE(is_valid_cookie(c)) << c;
    EXPECT_EQ(c, make_cookie(seed));
    seen.insert(c);
  }
  EXPECT_EQ(seen.size(), 200U);
}

// ---- framing ----------------------------------------------------------------------------------

TEST(JsonFrame, EncodesTheCapturedParameterFrame) {
  ASSERT_EQ(captured_tcp_params.size(), 137U);
  const std::string frame = encode_frame(captured_tcp_params);
  EXPECT_EQ(frame.substr(0, 4), bytes({0x00, 0x00, 0x00, 0x89}));
  EXPECT_EQ(frame.substr(4), captured_tcp_params);
}

TEST(JsonFrame, EncodingAnEmptyMessageIsRefused) {
  EXPECT_THROW((void)encode_frame(""), std::invalid_argument);
}

TEST(FrameDecoder, DecodesAWholeFrame) {
  const std::string frame = encode_frame(captured_tcp_params);
  frame_decoder d(max_param_json);
  EXPECT_EQ(d.bytes_needed(), 4U);
  EXPECT_EQ(d.feed(frame.data(), frame.size()), frame.size());
  ASSERT_TRUE(d.complete());
  EXPECT_EQ(d.bytes_needed(), 0U);
  EXPECT_EQ(d.take(), captured_tcp_params);
  EXPECT_FALSE(d.complete());
  EXPECT_EQ(d.bytes_needed(), 4U);
}

TEST(FrameDecoder, OneByteAtATimeNeverOverReads) {
  const std::string frame = encode_frame(captured_tcp_params);
  frame_decoder d(max_param_json);
  for (std::size_t i = 0; i < frame.size(); ++i) {
    ASSERT_FALSE(d.complete()) << "at byte " << i;
    const std::size_t expected_need = i < 4 ? 4 - i : frame.size() - i;
    EXPECT_EQ(d.bytes_needed(), expected_need) << "at byte " << i;
    ASSERT_EQ(d.feed(&frame[i], 1), 1U);
  }
  ASSERT_TRUE(d.complete());
  EXPECT_EQ(d.take(), captured_tcp_params);
}

TEST(FrameDecoder, TwoReadsSplitAtEveryByteBoundary) {
  const std::string frame = encode_frame(captured_tcp_params);
  for (std::size_t split = 0; split <= frame.size(); ++split) {
    frame_decoder d(max_param_json);
    EXPECT_EQ(d.feed(frame.data(), split), split);
    EXPECT_EQ(d.complete(), split == frame.size()) << "split " << split;
    EXPECT_EQ(d.bytes_needed(), split < 4 ? 4 - split : frame.size() - split);
    EXPECT_EQ(d.feed(frame.data() + split, frame.size() - split), frame.size() - split);
    ASSERT_TRUE(d.complete()) << "split " << split;
    EXPECT_EQ(d.take(), captured_tcp_params) << "split " << split;
  }
}

TEST(FrameDecoder, ConsumesOnlyTheCurrentFrame) {
  const std::string first = R"({"a":1})";
  const std::string second = R"({"b":[2,3]})";
  const std::string stream = encode_frame(first) + encode_frame(second);
  frame_decoder d(max_results_json, "results message");
  const std::size_t used = d.feed(stream.data(), stream.size());
  EXPECT_EQ(used, 4 + first.size());
  EXPECT_EQ(d.feed(stream.data() + used, stream.size() - used), 0U);  // until take()
  EXPECT_EQ(d.take(), first);
  EXPECT_EQ(d.feed(stream.data() + used, stream.size() - used), stream.size() - used);
  EXPECT_EQ(d.take(), second);
}

TEST(FrameDecoder, OversizeIsRejectedFromTheHeaderAlone) {
  // Only the 4 header bytes are fed: the limit is enforced before any body is awaited or
  // allocated. 9000 = 0x2328.
  const std::string header = bytes({0x00, 0x00, 0x23, 0x28});
  frame_decoder d(max_param_json, "parameter message");
  const auto e = expect_protocol_error([&] { d.feed(header.data(), header.size()); });
  EXPECT_THAT(e.what(), HasSubstr("parameter message of 9000 bytes exceeds the 8192-byte limit"));
  // The decoder is reset: a valid frame decodes afterwards.
  const std::string frame = encode_frame("{}");
  EXPECT_EQ(d.feed(frame.data(), frame.size()), frame.size());
  EXPECT_EQ(d.take(), "{}");
}

TEST(FrameDecoder, HugeAnnouncedLengthIsRejected) {
  const std::string header = bytes({0xff, 0xff, 0xff, 0xff});
  frame_decoder d(max_results_json, "results message");
  EXPECT_EQ(d.feed(header.data(), 3), 3U);
  const auto e = expect_protocol_error([&] { d.feed(header.data() + 3, 1); });
  EXPECT_THAT(e.what(), HasSubstr("4294967295 bytes exceeds the 4194304-byte limit"));
}

TEST(FrameDecoder, LimitItselfIsAccepted) {
  const std::string body(max_param_json, ' ');
  const std::string frame = encode_frame(body);
  frame_decoder d(max_param_json);
  EXPECT_EQ(d.feed(frame.data(), frame.size()), frame.size());
  EXPECT_EQ(d.take().size(), max_param_json);
}

TEST(FrameDecoder, ZeroLengthIsRejected) {
  const std::string header = bytes({0, 0, 0, 0});
  frame_decoder d(max_param_json);
  const auto e = expect_protocol_error([&] { d.feed(header.data(), header.size()); });
  EXPECT_THAT(e.what(), HasSubstr("empty JSON message"));
}

TEST(FrameDecoder, TakeBeforeCompleteIsALogicError) {
  frame_decoder d(max_param_json);
  EXPECT_THROW((void)d.take(), std::logic_error);
  const std::string frame = encode_frame("{}");
  d.feed(frame.data(), 5);
  EXPECT_THROW((void)d.take(), std::logic_error);
}

// ---- UDP --------------------------------------------------------------------------------------

TEST(UdpHeader, DecodesTheCaptured32BitHeader) {
  // First 3.12 UDP datagram (docs/iperf3-protocol.md §5): CLOCK_MONOTONIC 350 s 966357 us, seq 1.
  const std::array<std::uint8_t, 12> wire = {0x00, 0x00, 0x01, 0x5e, 0x00, 0x0e,
                                             0xbe, 0xd5, 0x00, 0x00, 0x00, 0x01};
  const auto h = decode_udp_header(wire, false);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->sec, 350U);
  EXPECT_EQ(h->usec, 966357U);
  EXPECT_EQ(h->seq, 1U);

  std::array<std::uint8_t, 12> out{};
  encode_udp_header(out, *h, false);
  EXPECT_EQ(out, wire);
}

TEST(UdpHeader, DecodesTheCaptured64BitHeader) {
  // `iperf3 -c 127.0.0.1 -u -b 1M -l 64 -t 1 --udp-counters-64bit`, first 64-byte datagram:
  // write(5, "\x00\x00\x05\x75\x00\x03\xbe\x44\x00\x00\x00\x00\x00\x00\x00\x01\x64\x3a...", 64)
  const std::array<std::uint8_t, 20> wire = {0x00, 0x00, 0x05, 0x75, 0x00, 0x03, 0xbe,
                                             0x44, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                             0x00, 0x01, 0x64, 0x3a, 0x00, 0x9a};
  const auto h = decode_udp_header(wire, true);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->sec, 1397U);
  EXPECT_EQ(h->usec, 245316U);
  EXPECT_EQ(h->seq, 1U);

  std::array<std::uint8_t, 20> out = wire;
  out.fill(0xaa);
  encode_udp_header(out, *h, true);
  EXPECT_TRUE(std::equal(out.begin(), out.begin() + 16, wire.begin()));
  EXPECT_EQ(out[16], 0xaa);  // the payload is not touched
}

TEST(UdpHeader, SizesAndBigSequenceNumbers) {
  EXPECT_EQ(udp_header_size(false), 12U);
  EXPECT_EQ(udp_header_size(true), 16U);

  const udp_header big{1, 2, 0x0102030405060708ULL};
  std::array<std::uint8_t, 16> out{};
  encode_udp_header(out, big, true);
  EXPECT_EQ(decode_udp_header(out, true)->seq, 0x0102030405060708ULL);
  encode_udp_header(out, big, false);  // 32-bit counters wrap, as in iperf3
  EXPECT_EQ(decode_udp_header(out, false)->seq, 0x05060708ULL);
}

TEST(UdpHeader, ShortBuffers) {
  const std::array<std::uint8_t, 15> in{};
  EXPECT_EQ(decode_udp_header(std::span(in).first(11), false), std::nullopt);
  EXPECT_TRUE(decode_udp_header(std::span(in).first(12), false));
  EXPECT_EQ(decode_udp_header(in, true), std::nullopt);

  std::array<std::uint8_t, 15> out{};
  EXPECT_THROW(encode_udp_header(out, {}, true), std::system_error);
  EXPECT_THROW(encode_udp_header(std::span(out).first(11), {}, false), std::system_error);
}

TEST(UdpConnect, HelloAndRepliesAreTheCapturedBytes) {
  // write(5, "\x39\x38\x37\x36", 4) and recvfrom(5, "\x36\x37\x38\x39", 4, ...)
  EXPECT_EQ(udp_connect_msg, (std::array<std::uint8_t, 4>{0x39, 0x38, 0x37, 0x36}));
  EXPECT_EQ(udp_connect_reply, (std::array<std::uint8_t, 4>{0x36, 0x37, 0x38, 0x39}));
  EXPECT_EQ(legacy_udp_connect_reply, (std::array<std::uint8_t, 4>{0xb1, 0x68, 0xde, 0x3a}));
  EXPECT_TRUE(is_udp_connect_reply(udp_connect_reply));
  EXPECT_TRUE(is_udp_connect_reply(legacy_udp_connect_reply));
  EXPECT_FALSE(is_udp_connect_reply(udp_connect_msg));
}

TEST(UdpConnect, OnlyExactlyFourBytesAreAReply) {
  const std::vector<std::uint8_t> longer = {0x36, 0x37, 0x38, 0x39, 0x00};
  EXPECT_FALSE(is_udp_connect_reply(longer));
  EXPECT_FALSE(is_udp_connect_reply(std::span(longer).first(3)));
  EXPECT_FALSE(is_udp_connect_reply({}));
}

// ---- SERVER_ERROR -----------------------------------------------------------------------------

TEST(ServerError, DecodesTheCapturedMssError) {
  // `iperf3 -c 127.0.0.1 -M 10`: the 3.12 server cannot set TCP_MAXSEG 10 on its listener:
  // read(4, "\xfe", 1), read(4, "\x00\x00\x00\x7b", 4), read(4, "\x00\x00\x00\x16", 4); the
  // stock client prints "unable to set TCP/SCTP MSS: Invalid argument".
  const std::array<std::uint8_t, 8> wire = {0x00, 0x00, 0x00, 0x7b, 0x00, 0x00, 0x00, 0x16};
  const server_error e = decode_server_error(wire);
  EXPECT_EQ(e.i_errno, 123);
  EXPECT_EQ(e.sys_errno, 22);
  EXPECT_EQ(describe_server_error(e), "unable to set TCP/SCTP MSS: Invalid argument");
  EXPECT_EQ(encode_server_error(e), wire);
}

TEST(ServerError, DescribesCommonCodes) {
  EXPECT_EQ(describe_server_error({121, 0}), "the server is busy running a test. try again later");
  EXPECT_EQ(describe_server_error({114, 0}), "unable to receive parameters from client");
  EXPECT_EQ(describe_server_error({117, 0}), "unable to receive results");
  EXPECT_EQ(describe_server_error({144, 0}), "idle timeout for receiving data");
  EXPECT_EQ(describe_server_error({203, 0}), "unable to connect stream");
  EXPECT_EQ(describe_server_error({208, 0}), "stream has an invalid id");
  EXPECT_EQ(describe_server_error({160, 0}), "server test duration expired");
  EXPECT_THAT(describe_server_error({102, 98}),
              HasSubstr("unable to start listener for connections: "));
  EXPECT_EQ(describe_server_error({999, 0}), "iperf3 error 999");
  EXPECT_EQ(describe_server_error({-5, 0}), "iperf3 error -5");
}

TEST(ServerError, NegativeValuesRoundTrip) {
  const server_error e{-1, -2};
  const auto wire = encode_server_error(e);
  EXPECT_EQ(wire, (std::array<std::uint8_t, 8>{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}));
  const server_error back = decode_server_error(wire);
  EXPECT_EQ(back.i_errno, -1);
  EXPECT_EQ(back.sys_errno, -2);
}

}  // namespace
