// Golden bytes from iperf3 3.17.1 and 3.21 (built from the esnet/iperf release tags), captured on
// loopback with `strace -f -xx` against hilperf-peer and hilperf: a UDP test with -O 1 and
// --get-server-output, the case where the versions differ most from 3.12 (docs/iperf3-protocol.md
// §7, §10). The parameters decode to the test asked for, the results decode with their omitted
// counts and server output, and re-encode byte for byte as the stock peer wrote them.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#include "hil/iperf3/exchange.hpp"
#include "hil/iperf3/params.hpp"
#include "hil/session/iperf3_framing.hpp"
#include "hil/tests/test_data.hpp"

namespace {

using namespace std::chrono_literals;

std::string capture(const std::string& name) { return hil::test::test_data(name); }

class NewerPeer : public ::testing::TestWithParam<const char*> {
 protected:
  [[nodiscard]] std::string file(const std::string& what) const {
    return capture(std::string("iperf3-") + GetParam() + "-udp-O1-" + what + ".json");
  }
};

TEST_P(NewerPeer, ParametersDecodeToTheTestAskedFor) {
  // iperf3 -c … -u -t 2 -P 2 -l 1472 -b 100M -O 1 --get-server-output (3.21 adds gso/gro keys).
  const auto s = hil::iperf3::decode_params(file("params"));
  EXPECT_EQ(s.proto, hil::measure::protocol::udp);
  EXPECT_EQ(s.duration, 2s);
  EXPECT_EQ(s.omit, 1s);
  EXPECT_EQ(s.parallel, 2);
  EXPECT_EQ(s.block_len, 1472U);
  EXPECT_EQ(s.bitrate_bps, 100'000'000U);
  EXPECT_TRUE(s.get_server_output);
  EXPECT_EQ(s.client_version, GetParam());
}

TEST_P(NewerPeer, ClientResultsCarryTheOmittedCounts) {
  const std::string bytes = file("client-results");
  const auto r = hil::iperf3::decode_results(bytes);
  ASSERT_EQ(r.streams.size(), 2U);
  for (const auto& s : r.streams) {
    ASSERT_TRUE(s.omitted_packets.has_value());
    ASSERT_TRUE(s.omitted_errors.has_value());
    EXPECT_GT(*s.omitted_packets, 0);
    EXPECT_LT(*s.omitted_packets, s.packets) << "packets run from the start";
  }
  EXPECT_EQ(hil::iperf3::encode_results(r), bytes);
  // The engine's view: the counts after omit, the omitted ones beside them.
  const auto t = hil::session::from_exchange(r);
  EXPECT_EQ(t.streams[0].totals.packets, r.streams[0].packets - *r.streams[0].omitted_packets);
  EXPECT_TRUE(t.streams[0].totals.omitted_known);
}

TEST_P(NewerPeer, ServerResultsCarryItsOutputAndReencodeExactly) {
  const std::string bytes = file("server-results");
  const auto r = hil::iperf3::decode_results(bytes);
  ASSERT_EQ(r.streams.size(), 1U);
  EXPECT_EQ(r.sender_has_retransmits, -1) << "a receiving server";
  ASSERT_TRUE(r.streams[0].omitted_packets.has_value());
  EXPECT_EQ(r.server_output_text.rfind("Accepted connection from 127.0.0.1, port ", 0), 0U)
      << r.server_output_text;
  EXPECT_NE(r.server_output_text.find("(omitted)"), std::string::npos);
  EXPECT_EQ(hil::iperf3::encode_results(r), bytes);
}

INSTANTIATE_TEST_SUITE_P(Capture, NewerPeer, ::testing::Values("3.17.1", "3.21"),
                         [](const auto& param_info) {
                           std::string name = std::string("Iperf3_") + param_info.param;
                           for (char& c : name) {
                             if (c == '.') c = '_';
                           }
                           return name;
                         });

}  // namespace
