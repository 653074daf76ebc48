// iperf3-style text. Expected lines are copied from the iperf3 output printed in procedure 000
// (docs/checks.md §1; trailing blanks trimmed there) and from stock
// iperf3 3.12 runs on loopback (`iperf3 -c 127.0.0.1 -t 2` with -u -b 10M -P 2, -P 2 -R,
// --bidir -P 2, and the matching `iperf3 -s -1`), trailing blanks kept as iperf3 prints them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "hil/report/iperf3_text.hpp"

namespace {

using namespace hil::measure;
using hil::report::format_bitrate;
using hil::report::format_bytes;
using hil::report::format_connected;
using hil::report::format_interval;
using hil::report::format_interval_header;
using hil::report::format_summary;
using hil::report::text_layout;

constexpr const char* k_separator = "- - - - - - - - - - - - - - - - - - - - - - - - -\n";

std::string rstrip_lines(const std::string& text) {
  std::string out;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
    begin = end + 1;
  }
  return out;
}

// src/units.c unit_snprintf for 'A' and 'a', ported line by line with printf: the reference.
std::string unit_snprintf(double in, char format) {
  static constexpr std::array<double, 5> k_bytes{1.0, 1.0 / 1024, 1.0 / 1024 / 1024,
                                                 1.0 / 1024 / 1024 / 1024,
                                                 1.0 / 1024 / 1024 / 1024 / 1024};
  static constexpr std::array<double, 5> k_bits{1.0, 1.0 / 1000, 1.0 / 1000 / 1000,
                                                1.0 / 1000 / 1000 / 1000,
                                                1.0 / 1000 / 1000 / 1000 / 1000};
  static constexpr std::array<const char*, 5> k_byte{"Byte", "KByte", "MByte", "GByte", "TByte"};
  static constexpr std::array<const char*, 5> k_bit{"bit", "Kbit", "Mbit", "Gbit", "Tbit"};
  const bool bits = format == 'a';
  if (bits) in *= 8;
  std::size_t conv = 0;
  double tmp = in;
  while (tmp >= (bits ? 1000.0 : 1024.0) && conv < 4) {
    tmp /= bits ? 1000.0 : 1024.0;
    conv++;
  }
  in *= bits ? k_bits[conv] : k_bytes[conv];
  const char* suffix = bits ? k_bit[conv] : k_byte[conv];
  std::array<char, 64> s{};
  if (in < 9.995) {
    std::snprintf(s.data(), s.size(), "%4.2f %s", in, suffix);
  } else if (in < 99.95) {
    std::snprintf(s.data(), s.size(), "%4.1f %s", in, suffix);
  } else {
    std::snprintf(s.data(), s.size(), "%4.0f %s", in, suffix);
  }
  return s.data();
}

stream_interval sample(int id, bool sender, double start_s, double end_s, std::uint64_t bytes) {
  stream_interval s;
  s.id = id;
  s.sender = sender;
  s.start_s = start_s;
  s.end_s = end_s;
  s.bytes = bytes;
  return s;
}

stream_interval tcp_sent(int id, double start_s, std::uint64_t bytes, std::int64_t retransmits,
                         std::int64_t cwnd) {
  stream_interval s = sample(id, true, start_s, start_s + 1.0, bytes);
  s.retransmits = retransmits;
  s.snd_cwnd_bytes = cwnd;
  return s;
}

stream_interval udp_sent(int id, double start_s, double end_s, std::uint64_t packets, int len) {
  stream_interval s = sample(id, true, start_s, end_s, packets * static_cast<std::uint64_t>(len));
  s.packets = packets;
  return s;
}

stream_totals totals(std::uint64_t bytes, double seconds, std::int64_t retransmits = -1) {
  stream_totals t;
  t.bytes = bytes;
  t.seconds = seconds;
  t.retransmits = retransmits;
  return t;
}

stream_endpoint endpoint(int id, int socket) {
  return {id, socket, "127.0.0.1", 45000 + id, "127.0.0.1", 5201};
}

// --- units ---------------------------------------------------------------------------------------

TEST(Iperf3Units, BytesUse1024AndFourCharacters) {
  EXPECT_EQ(format_bytes(0), "0.00 Bytes");
  EXPECT_EQ(format_bytes(999), " 999 Bytes");
  EXPECT_EQ(format_bytes(1023), "1023 Bytes");  // 1000..1023 keep the smaller unit
  EXPECT_EQ(format_bytes(1024), "1.00 KBytes");
  EXPECT_EQ(format_bytes(10234), "9.99 KBytes");  // 9.994 KiB
  EXPECT_EQ(format_bytes(10235), "10.0 KBytes");  // 9.995 KiB would print 10.00
  EXPECT_EQ(format_bytes(117625000), " 112 MBytes");
  EXPECT_EQ(format_bytes(62492276), "59.6 MBytes");
  EXPECT_EQ(format_bytes(4574000000), "4.26 GBytes");
  EXPECT_EQ(format_bytes(std::ldexp(2000.0, 40)), "2000 TBytes");  // tera is the largest unit
}

TEST(Iperf3Units, RatesUse1000AndFourCharacters) {
  EXPECT_EQ(format_bitrate(0), "0.00 bits/sec");
  EXPECT_EQ(format_bitrate(999), " 999 bits/sec");
  EXPECT_EQ(format_bitrate(1000), "1.00 Kbits/sec");
  EXPECT_EQ(format_bitrate(99949999), "99.9 Mbits/sec");
  EXPECT_EQ(format_bitrate(99950001), " 100 Mbits/sec");  // 99.95 would print 100.0
  EXPECT_EQ(format_bitrate(941e6), " 941 Mbits/sec");
  EXPECT_EQ(format_bitrate(1e9), "1.00 Gbits/sec");
  EXPECT_EQ(format_bitrate(18.3e9), "18.3 Gbits/sec");
}

TEST(Iperf3Units, MatchUnitsDotCOnRandomValues) {
  const std::uint64_t seed = std::random_device{}();
  RecordProperty("seed", std::to_string(seed));
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(0.0, 52.0);
  for (int i = 0; i < 20000; ++i) {
    const double bytes = std::floor(std::exp2(exponent(rng)));
    ASSERT_EQ(format_bytes(bytes), unit_snprintf(bytes, 'A') + "s") << bytes;
    const double bytes_per_second = bytes / (1.0 + exponent(rng) / 52.0);
    ASSERT_EQ(format_bitrate(bytes_per_second * 8), unit_snprintf(bytes_per_second, 'a') + "s/sec")
        << bytes_per_second;
  }
}

// --- live lines ----------------------------------------------------------------------------------

TEST(Iperf3Text, ConnectedLineAsTheSeed) {
  EXPECT_EQ(format_connected({1, 5, "192.168.1.10", 40564, "192.168.1.195", 5002}),
            "[  5] local 192.168.1.10 port 40564 connected to 192.168.1.195 port 5002\n");
  EXPECT_EQ(format_connected(endpoint(5, 12)),
            "[ 12] local 127.0.0.1 port 45005 connected to 127.0.0.1 port 5201\n");
}

TEST(Iperf3Text, HeadersPerProtocolAndSide) {
  EXPECT_EQ(format_interval_header(protocol::tcp, true),
            "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n");
  EXPECT_EQ(format_interval_header(protocol::tcp, false),
            "[ ID] Interval           Transfer     Bitrate\n");
  EXPECT_EQ(format_interval_header(protocol::udp, true),
            "[ ID] Interval           Transfer     Bitrate         Total Datagrams\n");
  EXPECT_EQ(
      format_interval_header(protocol::udp, false),
      "[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n");
  EXPECT_EQ(format_interval_header(protocol::tcp, true, true),
            "[ ID][Role] Interval           Transfer     Bitrate         Retr  Cwnd\n");
  EXPECT_EQ(format_interval_header(protocol::udp, true, true),
            "[ ID][Role] Interval           Transfer     Bitrate         Jitter    Lost/Total "
            "Datagrams\n");
}

TEST(Iperf3Text, SeedTcpSenderIntervals) {
  const text_layout layout{false, true, {endpoint(1, 5)}};
  std::string text;
  text += format_interval({{tcp_sent(1, 0.0, 117625000, 49, 211 * 1024)}}, protocol::tcp, layout);
  text += format_interval({{tcp_sent(1, 1.0, 117375000, 109, 210 * 1024)}}, protocol::tcp, layout);
  text += format_interval({{tcp_sent(1, 2.0, 115750000, 163, 200 * 1024)}}, protocol::tcp, layout);
  text += format_interval({{tcp_sent(1, 3.0, 117000000, 65, 218 * 1024)}}, protocol::tcp, layout);
  EXPECT_EQ(rstrip_lines(text),
            "[  5]   0.00-1.00   sec   112 MBytes   941 Mbits/sec   49    211 KBytes\n"
            "[  5]   1.00-2.00   sec   112 MBytes   939 Mbits/sec  109    210 KBytes\n"
            "[  5]   2.00-3.00   sec   110 MBytes   926 Mbits/sec  163    200 KBytes\n"
            "[  5]   3.00-4.00   sec   112 MBytes   936 Mbits/sec   65    218 KBytes\n");
  EXPECT_THAT(text, ::testing::StartsWith(
                        "[  5]   0.00-1.00   sec   112 MBytes   941 Mbits/sec   49    211 KBytes"
                        "       \n"));  // iperf3 pads where "(omitted)" would go
}

TEST(Iperf3Text, SeedUdpSenderIntervalsOfTheThreeMtuTiers) {
  const text_layout layout{false, true, {endpoint(1, 5)}};
  EXPECT_EQ(
      rstrip_lines(format_interval({{udp_sent(1, 0.0, 1.0, 22806, 548)}}, protocol::udp, layout)),
      "[  5]   0.00-1.00   sec  11.9 MBytes   100 Mbits/sec  22806\n");
  EXPECT_EQ(format_interval({{udp_sent(1, 1.0, 2.0, 8490, 1472)}}, protocol::udp, layout),
            "[  5]   1.00-2.00   sec  11.9 MBytes   100 Mbits/sec  8490  \n");
  EXPECT_EQ(rstrip_lines(
                format_interval({{udp_sent(1, 0.0, 1.0001, 4204, 2972)}}, protocol::udp, layout)),
            "[  5]   0.00-1.00   sec  11.9 MBytes  99.9 Mbits/sec  4204\n");
}

TEST(Iperf3Text, StockUdpParallelIntervalsHaveSumAndSeparator) {
  const text_layout layout{false, true, {endpoint(1, 5), endpoint(3, 7)}};
  const interval_sample first{
      {udp_sent(1, 0.0, 1.000202, 39, 32768), udp_sent(3, 0.0, 1.000202, 39, 32768)}};
  const interval_sample second{
      {udp_sent(1, 1.000202, 2.000225, 38, 32768), udp_sent(3, 1.000202, 2.000225, 38, 32768)}};
  EXPECT_EQ(format_interval(first, protocol::udp, layout) +
                format_interval(second, protocol::udp, layout),
            "[  5]   0.00-1.00   sec  1.22 MBytes  10.2 Mbits/sec  39  \n"
            "[  7]   0.00-1.00   sec  1.22 MBytes  10.2 Mbits/sec  39  \n"
            "[SUM]   0.00-1.00   sec  2.44 MBytes  20.4 Mbits/sec  78  \n"
            "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
            "[  5]   1.00-2.00   sec  1.19 MBytes  9.96 Mbits/sec  38  \n"
            "[  7]   1.00-2.00   sec  1.19 MBytes  9.96 Mbits/sec  38  \n"
            "[SUM]   1.00-2.00   sec  2.38 MBytes  19.9 Mbits/sec  76  \n");
}

TEST(Iperf3Text, StockBidirIntervalListsOurSendersFirstWithRoles) {
  const text_layout layout{
      true, true, {endpoint(1, 5), endpoint(3, 7), endpoint(4, 9), endpoint(5, 12)}};
  interval_sample sample_{
      {sample(4, false, 0.0, 1.0, 903872512), tcp_sent(1, 0.0, 95630131, 0, 1047728),
       tcp_sent(3, 0.0, 95630131, 0, 1047728), sample(5, false, 0.0, 1.0, 903872512)}};
  EXPECT_EQ(format_interval(sample_, protocol::tcp, layout),
            "[  5][TX-C]   0.00-1.00   sec  91.2 MBytes   765 Mbits/sec    0   1023 KBytes       \n"
            "[  7][TX-C]   0.00-1.00   sec  91.2 MBytes   765 Mbits/sec    0   1023 KBytes       \n"
            "[SUM][TX-C]   0.00-1.00   sec   182 MBytes  1.53 Gbits/sec    0             \n"
            "[  9][RX-C]   0.00-1.00   sec   862 MBytes  7.23 Gbits/sec                  \n"
            "[ 12][RX-C]   0.00-1.00   sec   862 MBytes  7.23 Gbits/sec                  \n"
            "[SUM][RX-C]   0.00-1.00   sec  1.68 GBytes  14.5 Gbits/sec                  \n");
  for (auto& s : sample_.streams) s.start_s += 1.0, s.end_s += 1.0;
  EXPECT_THAT(format_interval(sample_, protocol::tcp, layout), ::testing::StartsWith(k_separator));
}

TEST(Iperf3Text, StockServerReceiverIntervals) {
  const text_layout layout{false, false, {endpoint(1, 5)}};
  EXPECT_EQ(format_interval({{sample(1, false, 0.0, 1.0, 2212500000)}}, protocol::tcp, layout),
            "[  5]   0.00-1.00   sec  2.06 GBytes  17.7 Gbits/sec                  \n");
  EXPECT_EQ(
      format_interval({{sample(1, false, 2.000025, 2.000361, 393216)}}, protocol::tcp, layout),
      "[  5]   2.00-2.00   sec   384 KBytes  9.36 Gbits/sec                  \n");
  stream_interval udp = sample(1, false, 0.0, 1.000176, 39 * 32768);
  udp.packets = 39;
  udp.jitter_ms = 0.008;
  EXPECT_EQ(format_interval({{udp}}, protocol::udp, layout),
            "[  5]   0.00-1.00   sec  1.22 MBytes  10.2 Mbits/sec  0.008 ms  0/39 (0%)  \n");
}

TEST(Iperf3Text, LossPercentUsesIperf3sTwoSignificantDigits) {
  stream_interval s = sample(1, false, 0.0, 1.0, 1000);
  const auto line = [&s](std::int64_t lost, std::uint64_t packets) {
    s.lost_packets = lost;
    s.packets = packets;
    return format_interval({{s}}, protocol::udp);
  };
  EXPECT_THAT(line(1, 3), ::testing::HasSubstr("  1/3 (33%)  \n"));
  EXPECT_THAT(line(1, 1000), ::testing::HasSubstr("  1/1000 (0.1%)  \n"));
  EXPECT_THAT(line(5, 5), ::testing::HasSubstr("  5/5 (1e+02%)  \n"));  // %.2g, as iperf3
  EXPECT_THAT(line(0, 0), ::testing::HasSubstr("  0/0 (0%)  \n"));
}

TEST(Iperf3Text, OmittedIntervalsAreMarkedAndUnknownSocketsShowTheId) {
  stream_interval s = tcp_sent(3, 0.0, 1024, 0, 1024);
  s.omitted = true;
  EXPECT_EQ(format_interval({{s}}, protocol::tcp),
            "[  3]   0.00-1.00   sec  1.00 KBytes  8.19 Kbits/sec    0   1.00 KBytes       "
            "(omitted)\n");
}

// --- the summary ---------------------------------------------------------------------------------

test_result result(protocol proto, std::vector<stream_result> streams) {
  test_result r;
  r.spec.proto = proto;
  for (const auto& s : streams) r.connected.push_back(endpoint(s.id, s.id == 1 ? 5 : 2 * s.id + 1));
  r.streams = std::move(streams);
  return r;
}

stream_result udp_stream(int id, std::uint64_t packets, int len, double seconds, double jitter_ms) {
  const std::uint64_t bytes = packets * static_cast<std::uint64_t>(len);
  stream_result s{id, true, totals(bytes, seconds), totals(bytes, seconds)};
  s.sender.packets = s.receiver.packets = static_cast<std::int64_t>(packets);
  s.receiver.jitter_s = jitter_ms / 1000.0;
  return s;
}

TEST(Iperf3TextSummary, SeedUdpSummariesOfTheThreeMtuTiers) {
  const std::string header =
      std::string(k_separator) +
      "[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n";
  EXPECT_EQ(
      format_summary(result(protocol::udp, {udp_stream(1, 114037, 548, 5.0, 0.021)})),
      header +
          "[  5]   0.00-5.00   sec  59.6 MBytes   100 Mbits/sec  0.000 ms  0/114037 (0%)  sender\n"
          "[  5]   0.00-5.00   sec  59.6 MBytes   100 Mbits/sec  0.021 ms  0/114037 (0%)  "
          "receiver\n");
  EXPECT_EQ(
      format_summary(result(protocol::udp, {udp_stream(1, 42457, 1472, 5.0, 0.050)})),
      header +
          "[  5]   0.00-5.00   sec  59.6 MBytes   100 Mbits/sec  0.000 ms  0/42457 (0%)  sender\n"
          "[  5]   0.00-5.00   sec  59.6 MBytes   100 Mbits/sec  0.050 ms  0/42457 (0%)  "
          "receiver\n");
  EXPECT_EQ(
      format_summary(result(protocol::udp, {udp_stream(1, 21027, 2972, 5.0, 0.056)})),
      header +
          "[  5]   0.00-5.00   sec  59.6 MBytes   100 Mbits/sec  0.000 ms  0/21027 (0%)  sender\n"
          "[  5]   0.00-5.00   sec  59.6 MBytes   100 Mbits/sec  0.056 ms  0/21027 (0%)  "
          "receiver\n");
}

TEST(Iperf3TextSummary, StockTcpClient) {
  EXPECT_EQ(format_summary(result(protocol::tcp, {{1, true, totals(4574000000, 2.0, 25),
                                                   totals(4574000000, 2.0002)}})),
            std::string(k_separator) +
                "[ ID] Interval           Transfer     Bitrate         Retr\n"
                "[  5]   0.00-2.00   sec  4.26 GBytes  18.3 Gbits/sec   25             sender\n"
                "[  5]   0.00-2.00   sec  4.26 GBytes  18.3 Gbits/sec                  receiver\n");
}

TEST(Iperf3TextSummary, StockTcpReverseParallel) {
  EXPECT_EQ(format_summary(result(
                protocol::tcp, {{1, false, totals(1955000000, 2.0, 2), totals(1955000000, 2.0)},
                                {3, false, totals(1952500000, 2.0, 2), totals(1952500000, 2.0)}})),
            std::string(k_separator) +
                "[ ID] Interval           Transfer     Bitrate         Retr\n"
                "[  5]   0.00-2.00   sec  1.82 GBytes  7.82 Gbits/sec    2             sender\n"
                "[  5]   0.00-2.00   sec  1.82 GBytes  7.82 Gbits/sec                  receiver\n"
                "[  7]   0.00-2.00   sec  1.82 GBytes  7.81 Gbits/sec    2             sender\n"
                "[  7]   0.00-2.00   sec  1.82 GBytes  7.81 Gbits/sec                  receiver\n"
                "[SUM]   0.00-2.00   sec  3.64 GBytes  15.6 Gbits/sec    4             sender\n"
                "[SUM]   0.00-2.00   sec  3.64 GBytes  15.6 Gbits/sec                  receiver\n");
}

TEST(Iperf3TextSummary, StockUdpParallelAveragesJitter) {
  test_result r = result(protocol::udp, {udp_stream(1, 77, 32768, 2.000225, 0.011),
                                         udp_stream(3, 77, 32768, 2.000225, 0.009)});
  EXPECT_EQ(
      format_summary(r),
      std::string(k_separator) +
          "[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n"
          "[  5]   0.00-2.00   sec  2.41 MBytes  10.1 Mbits/sec  0.000 ms  0/77 (0%)  sender\n"
          "[  5]   0.00-2.00   sec  2.41 MBytes  10.1 Mbits/sec  0.011 ms  0/77 (0%)  receiver\n"
          "[  7]   0.00-2.00   sec  2.41 MBytes  10.1 Mbits/sec  0.000 ms  0/77 (0%)  sender\n"
          "[  7]   0.00-2.00   sec  2.41 MBytes  10.1 Mbits/sec  0.009 ms  0/77 (0%)  receiver\n"
          "[SUM]   0.00-2.00   sec  4.81 MBytes  20.2 Mbits/sec  0.000 ms  0/154 (0%)  sender\n"
          "[SUM]   0.00-2.00   sec  4.81 MBytes  20.2 Mbits/sec  0.010 ms  0/154 (0%)  receiver\n");
}

TEST(Iperf3TextSummary, StockBidirParallel) {
  test_result r =
      result(protocol::tcp, {{4, false, totals(1847500000, 2.0, 12), totals(1845000000, 2.0)},
                             {1, true, totals(192750000, 2.0, 0), totals(187000000, 2.0)},
                             {3, true, totals(192750000, 2.0, 0), totals(187000000, 2.0)},
                             {5, false, totals(1847500000, 2.0, 4), totals(1845000000, 2.0)}});
  r.spec.bidirectional = true;
  r.connected = {endpoint(1, 5), endpoint(3, 7), endpoint(4, 9), endpoint(5, 12)};
  EXPECT_EQ(
      format_summary(r),
      std::string(k_separator) +
          "[ ID][Role] Interval           Transfer     Bitrate         Retr\n"
          "[  5][TX-C]   0.00-2.00   sec   184 MBytes   771 Mbits/sec    0             sender\n"
          "[  5][TX-C]   0.00-2.00   sec   178 MBytes   748 Mbits/sec                  receiver\n"
          "[  7][TX-C]   0.00-2.00   sec   184 MBytes   771 Mbits/sec    0             sender\n"
          "[  7][TX-C]   0.00-2.00   sec   178 MBytes   748 Mbits/sec                  receiver\n"
          "[SUM][TX-C]   0.00-2.00   sec   368 MBytes  1.54 Gbits/sec    0             sender\n"
          "[SUM][TX-C]   0.00-2.00   sec   357 MBytes  1.50 Gbits/sec                  receiver\n"
          "[  9][RX-C]   0.00-2.00   sec  1.72 GBytes  7.39 Gbits/sec   12             sender\n"
          "[  9][RX-C]   0.00-2.00   sec  1.72 GBytes  7.38 Gbits/sec                  receiver\n"
          "[ 12][RX-C]   0.00-2.00   sec  1.72 GBytes  7.39 Gbits/sec    4             sender\n"
          "[ 12][RX-C]   0.00-2.00   sec  1.72 GBytes  7.38 Gbits/sec                  receiver\n"
          "[SUM][RX-C]   0.00-2.00   sec  3.44 GBytes  14.8 Gbits/sec   16             sender\n"
          "[SUM][RX-C]   0.00-2.00   sec  3.44 GBytes  14.8 Gbits/sec                  receiver\n");
  r.is_client = false;
  for (auto& s : r.streams) s.local_sends = !s.local_sends;
  EXPECT_THAT(format_summary(r), ::testing::HasSubstr("[  5][RX-S]   0.00-2.00"));
  EXPECT_THAT(format_summary(r), ::testing::HasSubstr("[ 12][TX-S]   0.00-2.00"));
}

TEST(Iperf3TextSummary, UdpLossAndOutOfOrder) {
  stream_result s = udp_stream(1, 1000, 1472, 5.0, 0.05);
  s.receiver.errors = 10;
  s.receiver.packets = 400;  // highest sequence seen: the per-stream line divides by it
  s.receiver.out_of_order = 3;
  EXPECT_EQ(
      rstrip_lines(format_summary(result(protocol::udp, {s}))),
      std::string(k_separator) +
          "[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n"
          "[  5]   0.00-5.00   sec  1.40 MBytes  2.36 Mbits/sec  0.000 ms  0/1000 (0%)  sender\n"
          "[SUM]  0.0- 5.0 sec  3 datagrams received out-of-order\n"
          "[  5]   0.00-5.00   sec  1.40 MBytes  2.36 Mbits/sec  0.050 ms  10/400 (2.5%)  "
          "receiver\n");
}

TEST(Iperf3TextSummary, SumLossIsOverTheSendersPackets) {
  stream_result a = udp_stream(1, 1000, 100, 1.0, 0.0);
  a.receiver.errors = 10;
  a.receiver.packets = 400;  // 590 more lost after the last datagram received
  stream_result b = a;
  b.id = 3;
  EXPECT_THAT(format_summary(result(protocol::udp, {a, b})),
              ::testing::HasSubstr("  0.000 ms  20/800 (1%)  receiver\n"));  // 20 of 2000 sent
}

TEST(Iperf3TextSummary, TcpWithoutRetransmitCountsUsesThePlainColumns) {
  EXPECT_EQ(
      format_summary(result(protocol::tcp, {{1, true, totals(1024, 1.0), totals(1024, 1.0)}})),
      std::string(k_separator) +
          "[ ID] Interval           Transfer     Bitrate\n"
          "[  5]   0.00-1.00   sec  1.00 KBytes  8.19 Kbits/sec                  sender\n"
          "[  5]   0.00-1.00   sec  1.00 KBytes  8.19 Kbits/sec                  receiver\n");
}

}  // namespace
