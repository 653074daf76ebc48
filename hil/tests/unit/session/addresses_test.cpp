// The addresses a user gives on the command line or in the profile: the server to connect to
// (hil/session/control_connect.hpp) and the address a server listens on (hil/session/listener.hpp).
// Numeric addresses, "localhost" and a name the resolver rejects unsent: no network is needed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <system_error>

#include "hil/session/control_connect.hpp"
#include "hil/session/listener.hpp"

namespace {

using ::testing::HasSubstr;

TEST(Addresses, ABracketedIpv6LiteralIsTheAddress) {
  const auto e = hil::session::resolve_peer("[::1]", 5201);
  EXPECT_EQ(e.address().to_string(), "::1");
  EXPECT_EQ(e.port(), 5201);
  EXPECT_EQ(hil::session::resolve_peer("192.0.2.7", 5001).address().to_string(), "192.0.2.7");
}

TEST(Addresses, AnUnresolvableServerIsNamedWithoutBlamingTheProfile) {
  try {
    (void)hil::session::resolve_peer("not a host!", 5201);
    FAIL() << "resolved a name that is no host name";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot resolve the server 'not a host!'"));
    EXPECT_THAT(e.what(), ::testing::Not(HasSubstr("profile")));
  }
}

TEST(Addresses, AListenAddressThatIsNoAddressIsNamed) {
  EXPECT_TRUE(hil::session::listen_address("").is_v6()) << "every address, dual-stack";
  try {
    (void)hil::session::listen_address("localhost");
    FAIL() << "a name passed for a listen address";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot listen on 'localhost': not an IPv4 or IPv6 address"));
  }
}

}  // namespace
