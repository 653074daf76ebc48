// iperf3's side of the engine's types (hil/session/iperf3_framing.hpp): the datagram header the
// flows write and read, the extension's connection hello, and a run's totals through the results
// exchange.
#include "hil/session/iperf3_framing.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace hil::session {
namespace {

TEST(Iperf3Framing, DatagramStampsAreIperf3Headers) {
  const auto narrow = udp_datagrams(false);
  std::vector<std::uint8_t> datagram(1472, 0xAA);
  narrow->write(datagram, {350, 966357, 1});
  // The captured header of stock 3.12's first datagram (docs/iperf3-protocol.md §5).
  const std::vector<std::uint8_t> head(datagram.begin(), datagram.begin() + 12);
  EXPECT_EQ(head, (std::vector<std::uint8_t>{0x00, 0x00, 0x01, 0x5e, 0x00, 0x0e, 0xbe, 0xd5, 0x00,
                                             0x00, 0x00, 0x01}));
  EXPECT_EQ(datagram[12], 0xAA) << "the payload after the header is left alone";
  const auto back = narrow->read(datagram);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->sec, 350U);
  EXPECT_EQ(back->usec, 966357U);
  EXPECT_EQ(back->seq, 1U);
  EXPECT_EQ(narrow->header_size(), 12U);
  EXPECT_FALSE(narrow->wide_sequence());
  EXPECT_FALSE(narrow->read(std::span(datagram.data(), 11)).has_value()) << "too short";

  const auto wide = udp_datagrams(true);
  wide->write(datagram, {1, 2, (std::uint64_t{1} << 40) + 7});
  EXPECT_EQ(wide->header_size(), 16U);
  EXPECT_EQ(wide->read(datagram)->seq, (std::uint64_t{1} << 40) + 7);
}

TEST(Iperf3Framing, ConnectionHellosAreTheExtensionsHellos) {
  const auto hello = extension_hello({1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(hello->size(), 12U);
  EXPECT_EQ(hello->encode(traffic::rr_connection::crr),
            (std::vector<std::uint8_t>{'H', 'X', 3, 'C', 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(hello->datagram_prefix(), (std::vector<std::uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_FALSE(extension_hello({8, 7, 6, 5, 4, 3, 2, 1})
                   ->decode(hello->encode(traffic::rr_connection::rr))
                   .has_value())
      << "another test's hello";
  for (const auto purpose : {traffic::rr_connection::rr, traffic::rr_connection::crr,
                             traffic::rr_connection::sink, traffic::rr_connection::source}) {
    EXPECT_EQ(hello->decode(hello->encode(purpose)), purpose);
  }
  const std::array<std::uint8_t, 12> http{'G', 'E', 'T', ' ', '/', ' ',
                                          'H', 'T', 'T', 'P', '/', '1'};
  EXPECT_FALSE(hello->decode(http).has_value());
  EXPECT_FALSE(hello->decode(std::span(http.data(), 4)).has_value());
}

TEST(Iperf3Framing, RunTotalsSurviveTheResultsExchange) {
  traffic::run_totals t;
  t.cpu = {12.5, 10.0, 2.5};
  t.tcp_sender = true;
  t.any_sender = true;
  t.congestion = "cubic";
  measure::stream_totals s;
  s.bytes = 1'000'000;
  s.seconds = 10.0;
  s.retransmits = 3;
  s.packets = 0;
  t.streams = {{1, s}, {3, s}};
  const auto e = to_exchange(t);
  EXPECT_EQ(e.sender_has_retransmits, 1);
  ASSERT_EQ(e.streams.size(), 2U);
  EXPECT_EQ(e.streams[1].id, 3);
  EXPECT_DOUBLE_EQ(e.streams[0].end_time, 10.0);
  EXPECT_DOUBLE_EQ(e.streams[0].start_time, 0.0);
  const auto back = from_exchange(e);
  EXPECT_TRUE(back.tcp_sender);
  EXPECT_EQ(back.congestion, "cubic");
  EXPECT_EQ(back.streams[1].totals.bytes, 1'000'000U);
  EXPECT_EQ(back.streams[1].totals.retransmits, 3);
  EXPECT_DOUBLE_EQ(back.cpu.total, 12.5);

  traffic::run_totals receiver;
  EXPECT_EQ(to_exchange(receiver).sender_has_retransmits, -1) << "a receiver only";
  receiver.any_sender = true;
  EXPECT_EQ(to_exchange(receiver).sender_has_retransmits, 0) << "a UDP sender";
}

}  // namespace
}  // namespace hil::session
