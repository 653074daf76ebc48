// iperf3's RSA authentication (hil/iperf3/auth.hpp) on golden tokens: what stock iperf3 3.12
// (PKCS#1 v1.5) and 3.21 (OAEP) clients sent for alice with hil/tests/data/auth/public.pem,
// captured from their parameter messages (hil/tests/data/iperf3-{3.12,3.21}-auth-params.json).
// The keys and users file are test-only (hil/tests/data/auth/README.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include "hil/iperf3/auth.hpp"
#include "hil/iperf3/params.hpp"
#include "hil/tests/test_data.hpp"

namespace {

using ::testing::HasSubstr;
namespace ip = hil::iperf3;

std::string data(const std::string& name) { return hil::test::test_data(name); }

std::string token(const std::string& name) {
  std::string t = data("auth/" + name);
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t;
}

const ip::rsa_key& private_key() {
  static const auto key = ip::rsa_key::private_from_pem(data("auth/private.pem"), "private.pem");
  return key;
}
const ip::rsa_key& public_key() {
  static const auto key = ip::rsa_key::public_from_pem(data("auth/public.pem"), "public.pem");
  return key;
}

const ip::credentials alice{"alice", "hilperf-test-secret"};
constexpr std::int64_t captured_312 = 1796153205;  // the ts inside each golden token
constexpr std::int64_t captured_321 = 1796153206;

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::invalid_argument);
    return e.what();
  }
  ADD_FAILURE() << "nothing was refused";
  return {};
}

TEST(Iperf3Auth, AStock321TokenDeciphersWithOaep) {
  const auto claim = ip::read_authtoken(token("token-3.21-oaep.txt"), private_key(), false);
  ASSERT_TRUE(claim.has_value());
  EXPECT_EQ(claim->who.username, "alice");
  EXPECT_EQ(claim->who.password, "hilperf-test-secret");
  EXPECT_EQ(claim->unix_seconds, captured_321);
  EXPECT_EQ(claim->padding, ip::rsa_padding::oaep);
}

TEST(Iperf3Auth, AStock312TokenNeedsPkcs1ToBeAccepted) {
  const std::string t = token("token-3.12-pkcs1.txt");
  EXPECT_FALSE(ip::read_authtoken(t, private_key(), false).has_value())
      << "PKCS#1 v1.5 is accepted only when the server allows it, as iperf3 3.17+";
  const auto claim = ip::read_authtoken(t, private_key(), true);
  ASSERT_TRUE(claim.has_value());
  EXPECT_EQ(claim->who.username, "alice");
  EXPECT_EQ(claim->who.password, "hilperf-test-secret");
  EXPECT_EQ(claim->unix_seconds, captured_312);
  EXPECT_EQ(claim->padding, ip::rsa_padding::pkcs1);
}

TEST(Iperf3Auth, OurTokensReadBackInBothPaddings) {
  for (const auto padding : {ip::rsa_padding::oaep, ip::rsa_padding::pkcs1}) {
    SCOPED_TRACE(std::string(ip::padding_name(padding)));
    const std::string t = ip::make_authtoken(alice, public_key(), padding, 1'700'000'000);
    EXPECT_EQ(t.size(), 344U) << "base64 of a 2048-bit block, one line, as iperf3 sends it";
    const auto claim = ip::read_authtoken(t, private_key(), true);
    ASSERT_TRUE(claim.has_value());
    EXPECT_EQ(claim->who.username, alice.username);
    EXPECT_EQ(claim->who.password, alice.password);
    EXPECT_EQ(claim->unix_seconds, 1'700'000'000);
    EXPECT_EQ(claim->padding, padding);
  }
}

TEST(Iperf3Auth, TheAuthtokenSitsWhereA321ClientPutsIt) {
  // iperf3 3.21 -c 127.0.0.1 -t 1 --username alice --rsa-public-key-path public.pem
  const std::string captured = data("iperf3-3.21-auth-params.json");
  const auto request = ip::decode_client_params(captured);
  ASSERT_TRUE(request.authtoken.has_value());
  EXPECT_EQ(ip::encode_params(request.spec, *request.authtoken), captured);
  const auto from_312 = ip::decode_client_params(data("iperf3-3.12-auth-params.json"));
  ASSERT_TRUE(from_312.authtoken.has_value());
  EXPECT_TRUE(ip::read_authtoken(*from_312.authtoken, private_key(), true).has_value());
  EXPECT_FALSE(ip::decode_client_params(ip::encode_params(request.spec)).authtoken.has_value())
      << "no authtoken key without credentials";
}

TEST(Iperf3Auth, TheUsersFileIsReadAsIperf3ReadsIt) {
  const std::string users = data("auth/users.csv");
  EXPECT_EQ(ip::password_hash(alice),
            "4c00530cabd59132c7c44260e6beb6d4070f10a3d2dbd3ef9f5dec4a3383373e");
  EXPECT_TRUE(ip::users_file_admits(users, alice));
  EXPECT_FALSE(ip::users_file_admits(users, {"alice", "wrong"}));
  EXPECT_FALSE(ip::users_file_admits(users, {"bob", alice.password}));
  const std::string hash = ip::password_hash(alice);
  EXPECT_TRUE(ip::users_file_admits("# c\r\n\r\nno comma\r\nalice," + hash + "\r\n", alice));
  EXPECT_TRUE(ip::users_file_admits("alice," + hash, alice)) << "no final newline";
  EXPECT_FALSE(ip::users_file_admits("#alice," + hash + "\n", alice)) << "a comment";
  EXPECT_FALSE(ip::users_file_admits(" alice," + hash + "\n", alice)) << "names match exactly";
}

TEST(Iperf3Auth, AServerSaysWhyItRefused) {
  const std::string users = data("auth/users.csv");
  const std::string t = token("token-3.21-oaep.txt");
  const auto ok = ip::authenticate(t, private_key(), users, captured_321 + 10, 10, false);
  EXPECT_TRUE(ok.admitted) << ok.reason;
  EXPECT_EQ(ok.username, "alice");

  const auto skewed = ip::authenticate(t, private_key(), users, captured_321 + 11, 10, false);
  EXPECT_FALSE(skewed.admitted);
  EXPECT_THAT(skewed.reason, HasSubstr("11 s behind"));
  const auto ahead = ip::authenticate(t, private_key(), users, captured_321 - 30, 10, false);
  EXPECT_THAT(ahead.reason, HasSubstr("30 s ahead of"));

  const auto none = ip::authenticate(std::nullopt, private_key(), users, captured_321, 10, false);
  EXPECT_FALSE(none.admitted);
  EXPECT_THAT(none.reason, HasSubstr("no credentials"));
  const auto empty = ip::authenticate("", private_key(), users, captured_321, 10, false);
  EXPECT_THAT(empty.reason, HasSubstr("esnet/iperf#1951"));
  const auto legacy = ip::authenticate(token("token-3.12-pkcs1.txt"), private_key(), users,
                                       captured_312, 10, false);
  EXPECT_FALSE(legacy.admitted);
  EXPECT_THAT(legacy.reason, HasSubstr("--use-pkcs1-padding"));
  const auto garbage = ip::authenticate("bm90IGEgdG9rZW4=", private_key(), users, 0, 10, true);
  EXPECT_THAT(garbage.reason, HasSubstr("does not decipher"));
  const auto stranger = ip::authenticate(
      ip::make_authtoken({"bob", "pw"}, public_key(), ip::rsa_padding::oaep, captured_321),
      private_key(), users, captured_321, 10, false);
  EXPECT_THAT(stranger.reason, HasSubstr("user \"bob\" is not in the authorized users file"));
}

TEST(Iperf3Auth, CredentialsIperf3CannotCarryAreRefusedUpFront) {
  for (const ip::credentials& c : std::initializer_list<ip::credentials>{
           {"", "pw"}, {"alice", ""}, {"al ice", "pw"}, {"alice", "p\nw"}}) {
    EXPECT_THAT(
        refusal([&] { (void)ip::make_authtoken(c, public_key(), ip::rsa_padding::oaep, 0); }),
        HasSubstr("one word"));
  }
  const ip::credentials long_one{"alice", std::string(300, 'x')};
  EXPECT_THAT(
      refusal([&] { (void)ip::make_authtoken(long_one, public_key(), ip::rsa_padding::oaep, 0); }),
      HasSubstr("too long for a 2048-bit key with OAEP padding"));
}

TEST(Iperf3Auth, WrongKeyFilesAreNamedWithTheCure) {
  EXPECT_THAT(
      refusal([] { (void)ip::rsa_key::public_from_pem(data("auth/private.pem"), "k.pem"); }),
      HasSubstr("k.pem is not a PEM public key"));
  EXPECT_THAT(refusal([] { (void)ip::rsa_key::private_from_pem("garbage", "k.pem"); }),
              HasSubstr("k.pem is not a PEM private key"));
  EXPECT_THAT(refusal([] {
                (void)ip::rsa_key::private_from_pem(data("auth/private-protected.pem"), "p.pem");
              }),
              HasSubstr("p.pem is protected by a passphrase"));
  EXPECT_EQ(private_key().bits(), 2048);
}

}  // namespace
