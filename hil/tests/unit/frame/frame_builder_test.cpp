// The frame builder on bytes: headers and checksums against packets computed independently
// (a textbook IPv4 header; frames whose every field and checksum were worked out by hand with
// RFC 768/791/8200 arithmetic), and stamping that only patches the stamp and the UDP checksum.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "hil/frame/frame_builder.hpp"

namespace {

using hil::frame::frame_spec;
using hil::frame::frame_template;
using hil::frame::stamp_kind;

std::vector<std::byte> from_hex(const std::string& hex) {
  std::vector<std::byte> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<std::byte>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

frame_spec spec(int version, std::uint32_t size, stamp_kind stamp = stamp_kind::iperf3) {
  frame_spec s;
  s.src_mac = {2, 0, 0, 0, 0, 1};
  s.dst_mac = {2, 0, 0, 0, 0, 2};
  s.src_ip = hil::frame::parse_ip(version == 6 ? "2001:2::10" : "198.18.0.10");
  s.dst_ip = hil::frame::parse_ip(version == 6 ? "2001:2::195" : "198.18.0.195");
  s.src_port = 5201;
  s.dst_port = 5202;
  s.frame_bytes = size;
  s.stamp = stamp;
  return s;
}

std::vector<std::byte> stamped(const frame_template& t, std::uint32_t seq, std::uint32_t sec,
                               std::uint32_t usec) {
  std::vector<std::byte> f(t.bytes().begin(), t.bytes().end());
  t.stamp(f.data(), seq, sec, usec);
  return f;
}

TEST(InternetChecksum, MatchesTheTextbookIpv4Header) {
  // 192.168.0.1 -> 192.168.0.199, total length 115, DF, TTL 64, UDP: checksum 0xb861.
  const auto header = from_hex("450000730000400040110000c0a80001c0a800c7");
  EXPECT_EQ(hil::frame::internet_checksum(header), 0xb861);
  auto with = header;
  with[10] = std::byte{0xb8};
  with[11] = std::byte{0x61};
  EXPECT_EQ(hil::frame::internet_checksum(with), 0) << "a header with its checksum sums to zero";
}

TEST(FrameTemplate, Ipv4Frame64MatchesTheKnownPacket) {
  const frame_template t(spec(4, 64));
  ASSERT_EQ(t.size(), 60U) << "64 bytes on the wire is 60 without the FCS";
  EXPECT_EQ(t.payload_offset(), 42U);
  EXPECT_EQ(t.payload_size(), 18U);
  EXPECT_EQ(stamped(t, 7, 0x5f5e1000, 123456), from_hex("02000000000202000000000108004500"
                                                        "002e000040004011adcdc612000ac612"
                                                        "00c314511452001af87d5f5e10000001"
                                                        "e24000000007000000000000"));
}

TEST(FrameTemplate, UnstampedFrameCarriesItsChecksumAlready) {
  const frame_template t(spec(4, 64, stamp_kind::none));
  EXPECT_EQ(std::vector<std::byte>(t.bytes().begin(), t.bytes().end()),
            from_hex("02000000000202000000000108004500"
                     "002e000040004011adcdc612000ac612"
                     "00c314511452001a4a25000000000000"
                     "000000000000000000000000"));
}

TEST(FrameTemplate, Ipv6Frame78MatchesTheKnownPacket) {
  const frame_template t(spec(6, 78));
  ASSERT_EQ(t.size(), 74U);
  EXPECT_EQ(stamped(t, 0x01020304, 1700000000, 999999), from_hex("02000000000202000000000186dd6000"
                                                                 "00000014114020010002000000000000"
                                                                 "00000000001020010002000000000000"
                                                                 "000000000195145114520014f8cf6553"
                                                                 "f100000f423f01020304"));
  EXPECT_EQ(t.sequence_of(stamped(t, 0x01020304, 1, 2)), 0x01020304U);
}

// The incremental checksum equals one computed over the whole stamped datagram, for any stamp:
// the pseudo-header plus the UDP datagram sums to 0xffff (RFC 768), at every size.
TEST(FrameTemplate, StampedChecksumsVerifyOverTheWholeDatagram) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  for (const int v : {4, 6}) {
    for (const std::uint32_t size : {78U, 128U, 512U, 1518U, 9018U}) {
      const frame_template t(spec(v, size));
      for (int i = 0; i < 200; ++i) {
        const auto f =
            stamped(t, static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
                    static_cast<std::uint32_t>(rng() % 1000000));
        const std::size_t ip = 14;
        const std::size_t ip_bytes = v == 6 ? 40 : 20;
        const std::size_t addr_at = ip + (v == 6 ? 8 : 12);
        const std::size_t addr_len = v == 6 ? 32 : 8;
        const auto udp_len = static_cast<std::uint32_t>(f.size() - ip - ip_bytes);
        std::uint64_t sum = hil::frame::ones_sum({f.data() + addr_at, addr_len}) + 17 + udp_len +
                            hil::frame::ones_sum({f.data() + ip + ip_bytes, udp_len});
        while ((sum >> 16) != 0) sum = (sum & 0xffff) + (sum >> 16);
        ASSERT_EQ(sum, 0xffffU) << "IPv" << v << " frame " << size;
        if (v == 4) {
          ASSERT_EQ(hil::frame::internet_checksum({f.data() + ip, 20}), 0);
        }
      }
    }
  }
}

TEST(FrameTemplate, RefusesFramesThatCannotCarryTheHeadersOrTheStamp) {
  EXPECT_THROW(frame_template{spec(4, 63)}, std::invalid_argument);
  EXPECT_THROW(frame_template{spec(4, 9019)}, std::invalid_argument);
  EXPECT_THROW(frame_template{spec(6, 64)}, std::invalid_argument)
      << "IPv6 + UDP + a 12-byte stamp needs 78 bytes";
  EXPECT_THROW(frame_template{spec(6, 77)}, std::invalid_argument);
  EXPECT_NO_THROW(frame_template{spec(6, 66, stamp_kind::none)});
  frame_spec mixed = spec(4, 64);
  mixed.dst_ip = hil::frame::parse_ip("2001:2::195");
  EXPECT_THROW(frame_template{mixed}, std::invalid_argument);
  EXPECT_THROW((void)hil::frame::parse_ip("198.18.0.300"), std::invalid_argument);
}

TEST(FrameTemplate, PayloadStampIsIperf3sUdpHeader) {
  const frame_template t(spec(4, 128));
  std::vector<std::byte> payload(t.payload_size());
  t.stamp_payload(payload.data(), 0x0a0b0c0d, 0x11223344, 0x00054321);
  EXPECT_EQ(std::vector<std::byte>(payload.begin(), payload.begin() + 12),
            from_hex("112233440005432"
                     "10a0b0c0d"));
}

}  // namespace
