// Unit tests of an RFC 2217 console's pure half (hil/console/detail/rfc2217.hpp): its address as
// libgensio's connect string, and the causes its failures are named by. The link itself meets a
// real ser2net in tools/hilperf-mcu-sim/tests/rfc2217_test.cpp.
#include "hil/console/detail/rfc2217.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace hil::console::detail {
namespace {

using ::testing::HasSubstr;

TEST(Rfc2217Address, HostAndPortBecomeATelnetRfc2217TcpString) {
  EXPECT_EQ(gensio_connect_string("127.0.0.1:3001"), "telnet(rfc2217),tcp,127.0.0.1,3001");
  EXPECT_EQ(gensio_connect_string("console-server.lab:7001"),
            "telnet(rfc2217),tcp,console-server.lab,7001");
}

TEST(Rfc2217Address, AnIpv6HostLosesItsBrackets) {
  EXPECT_EQ(gensio_connect_string("[2001:db8::7]:3001"), "telnet(rfc2217),tcp,2001:db8::7,3001");
}

TEST(Rfc2217Address, AMissingOrBadPortIsRefusedNamingTheAddress) {
  for (const std::string address : {"127.0.0.1", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:65536",
                                    "127.0.0.1:30x1", "127.0.0.1:-3"}) {
    try {
      (void)gensio_connect_string(address);
      ADD_FAILURE() << address << " was taken";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), HasSubstr("rfc2217://" + address)) << address;
    }
  }
}

TEST(Rfc2217Address, AHostThatWouldExtendGensiosSyntaxIsRefused) {
  // A ',' or parentheses would be read as more of the connect string (another gensio, options).
  for (const std::string address : {":3001", "a,b:3001", "ssl(x):3001", "a b:3001"}) {
    EXPECT_THROW((void)gensio_connect_string(address), std::invalid_argument) << address;
  }
}

TEST(Rfc2217Causes, EachFaultNamesWhatToCheck) {
  EXPECT_THAT(std::string(likely_cause(rfc2217_fault::refused)), HasSubstr("nothing listens"));
  EXPECT_THAT(std::string(likely_cause(rfc2217_fault::refused)),
              HasSubstr("telnet(rfc2217),tcp,<port>"));
  EXPECT_THAT(std::string(likely_cause(rfc2217_fault::not_rfc2217)),
              HasSubstr("not an RFC 2217 server"));
  EXPECT_THAT(std::string(likely_cause(rfc2217_fault::not_rfc2217)), HasSubstr("tcp://host:port"));
  EXPECT_THAT(std::string(likely_cause(rfc2217_fault::setting_refused)), HasSubstr("refused"));
  for (const auto fault : {rfc2217_fault::unreachable, rfc2217_fault::no_answer,
                           rfc2217_fault::closed, rfc2217_fault::other}) {
    EXPECT_FALSE(likely_cause(fault).empty());
  }
}

}  // namespace
}  // namespace hil::console::detail
