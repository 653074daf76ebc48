// iperf 2's wire format (hil/iperf2/wire.hpp) on bytes captured from Debian's iperf 2.1.8 on
// loopback (tcpdump): the header a default `iperf -c` sends, the one in every datagram of
// `iperf -c -u -b 50M -t 3`, the server's ack and its UDP report (docs/iperf2-protocol.md).
#include <gtest/gtest.h>

#include <vector>

#include "hil/iperf2/wire.hpp"

namespace {

namespace i2 = hil::iperf2;
using namespace std::chrono_literals;

std::vector<std::uint8_t> bytes(std::initializer_list<unsigned> v) { return {v.begin(), v.end()}; }

// `iperf -c 127.0.0.1 -t 2`: the first 60 bytes of the stream.
const std::vector<std::uint8_t> tcp_header_2s =
    bytes({0x40, 0x01, 0x00, 0x78, 0, 0, 0, 1, 0, 0, 0x13, 0x89, 0, 0, 0, 0, 0, 0,    0, 0,
           0xff, 0xff, 0xff, 0x38, 0, 0, 0, 0, 0, 0, 0,    0,    0, 0, 0, 0, 0, 0x02, 0, 0x01,
           0,    0x08, 0,    0x03, 0, 0, 0, 0, 0, 0, 0,    0,    0, 0, 0, 0, 0, 0,    0, 0});

TEST(Iperf2Wire, OurTcpHeaderIsA218Clients) {
  const auto h = i2::make_header(false, 1, 5001, 2s, 0, 0);
  const auto out = i2::encode_header(h);
  EXPECT_EQ(std::vector<std::uint8_t>(out.begin(), out.end()), tcp_header_2s);
  EXPECT_TRUE(i2::wants_ack(h));
}

TEST(Iperf2Wire, AStockTcpHeaderDecodes) {
  const auto h = i2::decode_header(tcp_header_2s);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->streams, 1);
  EXPECT_EQ(h->port, 5001);
  EXPECT_TRUE(h->timed());
  EXPECT_EQ(h->duration(), 2s);
  EXPECT_FALSE(h->reverse());
  EXPECT_FALSE(h->full_duplex());
  EXPECT_EQ(i2::header_length(h->flags), 60U);
}

TEST(Iperf2Wire, AStreamsFirstFourBytesSayWhetherAHeaderFollows) {
  // A stock 2.1.8 client: EXTEND | LEN_BIT | 60 << 1, a 60-byte header.
  const auto flags = i2::decode_flags(std::span(tcp_header_2s).first<i2::flags_size>());
  EXPECT_EQ(flags, 0x40010078U);
  EXPECT_TRUE(i2::has_header(flags));
  EXPECT_EQ(i2::header_length(flags), 60U);
  // A -d/-r client (VERSION1, no length): the 24-byte v1 header, a legacy dual test.
  const auto dual = bytes({0x80, 0, 0, 0, 0, 0, 0, 1, 0,    0,    0x13, 0x89,
                           0,    0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x38});
  const auto v1 = i2::decode_flags(std::span(dual).first<i2::flags_size>());
  EXPECT_EQ(v1, 0x80000000U);
  EXPECT_TRUE(i2::has_header(v1));
  EXPECT_EQ(i2::header_length(v1), 24U);
  const auto h = i2::decode_header(dual);
  ASSERT_TRUE(h.has_value());
  EXPECT_TRUE(h->dual_test());
  EXPECT_FALSE(i2::decode_header(tcp_header_2s)->dual_test());
  // A `-C` (1.7-compatible) client's raw data: '0123…', no header flag, no header.
  const auto raw = bytes({'0', '1', '2', '3'});
  const auto none = i2::decode_flags(std::span(raw).first<i2::flags_size>());
  EXPECT_EQ(none, 0x30313233U);
  EXPECT_FALSE(i2::has_header(none));
  // An -R client: VERSION2 without EXTEND.
  EXPECT_TRUE(i2::has_header(0x04000000U));
}

TEST(Iperf2Wire, TheUdpHeaderCarriesRateDurationAndWideSequences) {
  // Bytes 16..75 of the first datagram of `iperf -c … -u -b 50M -t 3` (50M = 52,428,800 bit/s).
  const auto stock = bytes(
      {0x48, 0x01, 0x00, 0x98, 0, 0, 0, 1, 0,    0,    0x13, 0x89, 0, 0, 0, 0, 0, 0,    0, 0,
       0xff, 0xff, 0xfe, 0xd4, 0, 0, 0, 0, 0,    0,    0,    0,    0, 0, 0, 0, 0, 0x02, 0, 0x01,
       0,    0x08, 0,    0x03, 0, 0, 0, 0, 0x03, 0x20, 0,    0,    0, 0, 0, 0, 0, 0,    0, 0});
  const auto h = i2::make_header(true, 1, 5001, 3s, 0, 52'428'800);
  const auto out = i2::encode_header(h);
  EXPECT_EQ(std::vector<std::uint8_t>(out.begin(), out.end()), stock);
  const auto back = i2::decode_header(stock);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->rate_bps, 52'428'800U);
  EXPECT_EQ(back->duration(), 3s);
  EXPECT_EQ(i2::header_length(back->flags), 76U);
  EXPECT_NE(back->flags & i2::flag_seqno64, 0U);
}

TEST(Iperf2Wire, ReverseAndFullDuplexAreRecognised) {
  auto reverse = tcp_header_2s;
  reverse[0] = 0x44;   // VERSION2
  reverse[32] = 0x04;  // upper flags: REVERSE
  EXPECT_TRUE(i2::decode_header(reverse)->reverse());
  EXPECT_FALSE(i2::wants_ack(*i2::decode_header(reverse)));
  reverse[32] = 0x08;  // FULLDUPLEX
  EXPECT_TRUE(i2::decode_header(reverse)->full_duplex());
  EXPECT_FALSE(i2::decode_header(bytes({0x30, 0x31, 0x32, 0x33, 0, 0, 0, 0, 0, 0, 0, 0,
                                        0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0}))
                   .has_value())
      << "a -C client's raw data has no header";
  EXPECT_FALSE(i2::decode_header(bytes({0x40, 0x01})).has_value()) << "too short";
}

TEST(Iperf2Wire, OurReverseAndFullDuplexHeadersAreA218Clients) {
  // `iperf -c 127.0.0.1 -t 2 -R` and `--full-duplex`: the stream's first 60 bytes.
  auto stock = tcp_header_2s;
  stock[0] = 0x44;
  stock[32] = 0x04;
  auto out = i2::encode_header(i2::make_header(false, 1, 5001, 2s, 0, 0, i2::direction::reverse));
  EXPECT_EQ(std::vector<std::uint8_t>(out.begin(), out.end()), stock);
  EXPECT_EQ(i2::decode_header(stock)->way(), i2::direction::reverse);
  stock[32] = 0x08;
  out = i2::encode_header(i2::make_header(false, 1, 5001, 2s, 0, 0, i2::direction::full_duplex));
  EXPECT_EQ(std::vector<std::uint8_t>(out.begin(), out.end()), stock);
  EXPECT_EQ(i2::decode_header(stock)->way(), i2::direction::full_duplex);
}

TEST(Iperf2Wire, OurUdpReverseAndFullDuplexHeadersAreA218Clients) {
  // `iperf -c 127.0.0.1 -u -t 2 -R` (10M = 10,485,760 bit/s): flags 6c 01 00 98 (EXTEND |
  // UDPTESTS | SEQNO64B | VERSION2), upper flags 04 00; with --full-duplex 08 08 (+ NOUDPFIN).
  auto stock = bytes(
      {0x6c, 0x01, 0x00, 0x98, 0, 0, 0, 1, 0,    0,    0x13, 0x89, 0, 0, 0, 0, 0, 0,    0, 0,
       0xff, 0xff, 0xff, 0x38, 0, 0, 0, 0, 0,    0,    0,    0,    4, 0, 0, 0, 0, 0x02, 0, 0x01,
       0,    0x08, 0,    0x03, 0, 0, 0, 0, 0x00, 0xa0, 0,    0,    0, 0, 0, 0, 0, 0,    0, 0});
  auto out =
      i2::encode_header(i2::make_header(true, 1, 5001, 2s, 0, 10'485'760, i2::direction::reverse));
  EXPECT_EQ(std::vector<std::uint8_t>(out.begin(), out.end()), stock);
  stock[32] = 0x08;
  stock[33] = 0x08;
  out = i2::encode_header(
      i2::make_header(true, 1, 5001, 2s, 0, 10'485'760, i2::direction::full_duplex));
  EXPECT_EQ(std::vector<std::uint8_t>(out.begin(), out.end()), stock);
  EXPECT_EQ(i2::decode_header(stock)->way(), i2::direction::full_duplex);
}

TEST(Iperf2Wire, TheAckIsA218Servers) {
  const auto ack = i2::encode_header_ack();
  EXPECT_EQ(std::vector<std::uint8_t>(ack.begin(), ack.end()),
            bytes({0, 0,    0, 2,    0, 0,    0, 0x1c, 0, 0, 0, 0, 0, 0x02,
                   0, 0x01, 0, 0x08, 0, 0x03, 0, 0,    0, 0, 0, 0, 0, 0}));
}

TEST(Iperf2Wire, PrefixesAndFinsRoundTrip) {
  std::array<std::uint8_t, i2::prefix_size> p{};
  i2::encode_prefix(p, {-13378, 0x6b0f1fec, 0x000169c3});
  EXPECT_EQ(std::vector<std::uint8_t>(p.begin(), p.end()),
            bytes({0xff, 0xff, 0xcb, 0xbe, 0x6b, 0x0f, 0x1f, 0xec, 0x00, 0x01, 0x69, 0xc3, 0xff,
                   0xff, 0xff, 0xff}));
  const auto back = i2::decode_prefix(p);
  EXPECT_EQ(back.seq, -13378);
  EXPECT_EQ(back.sec, 0x6b0f1fecU);
  EXPECT_EQ(back.usec, 0x000169c3U);
}

// A 2.1.8 server's report after a lossy run: 3,896,970 bytes in 3.001247 s, 27 lost of 2678,
// 1 out of order, jitter 12 µs (the client printed "0.012 ms 27/2678 (1%)").
std::vector<std::uint8_t> lossy_report() {
  std::vector<std::uint8_t> r(i2::report_size, 0);
  const auto put = [&](std::size_t at, std::uint32_t v) {
    r[at] = static_cast<std::uint8_t>(v >> 24);
    r[at + 1] = static_cast<std::uint8_t>(v >> 16);
    r[at + 2] = static_cast<std::uint8_t>(v >> 8);
    r[at + 3] = static_cast<std::uint8_t>(v);
  };
  put(16, 0x88000000);
  put(24, 3896970);
  put(28, 3);
  put(32, 1247);
  put(36, 27);
  put(40, 1);
  put(44, 2678);
  put(52, 12);
  return r;
}

TEST(Iperf2Wire, AStockServerReportDecodes) {
  const auto r = i2::decode_report(lossy_report());
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->bytes, 3896970U);
  EXPECT_EQ(r->duration, 3'001'247us);
  EXPECT_EQ(r->lost, 27);
  EXPECT_EQ(r->out_of_order, 1);
  EXPECT_EQ(r->datagrams, 2678);
  EXPECT_EQ(r->jitter, 12us);
  const auto ours = i2::encode_report(*r);
  EXPECT_EQ(std::vector<std::uint8_t>(ours.begin(), ours.end()), lossy_report());
}

TEST(Iperf2Wire, OnlyAReportIsTakenForOne) {
  auto echo = lossy_report();
  echo[0] = 0xff;  // a server's re-send that echoes the client's FIN prefix
  EXPECT_FALSE(i2::decode_report(echo).has_value());
  const auto ack = i2::encode_header_ack();
  EXPECT_FALSE(i2::decode_report(ack).has_value()) << "a stale header ack";
}

TEST(Iperf2Wire, FirstBytesTellIperf3FromIperf2) {
  for (const std::uint8_t b : {'a', 'q', 'z', '2', '7'}) {
    EXPECT_EQ(i2::classify_first_byte(b), i2::first_byte_kind::iperf3) << b;
  }
  for (const int b : {0x40, 0x44, 0x46, 0xc0, int{'0'}, 0x00}) {
    EXPECT_EQ(i2::classify_first_byte(static_cast<std::uint8_t>(b)), i2::first_byte_kind::iperf2)
        << b;
  }
}

}  // namespace
