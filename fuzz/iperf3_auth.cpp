// fuzz_iperf3_auth: what a client's authtoken and a users file make our server decide
// (hil/iperf3/auth.hpp read_authtoken, authenticate, users_file_admits), with the test key pair of
// hil/tests/data/auth. A random token almost never deciphers, so half the inputs are a plaintext
// that the target enciphers itself: that reaches the parser of iperf3's "user: …" layout.
//
//   input: [mode] [token or plaintext] NUL [users file]   (iperf3's plaintext has line breaks)
//   mode bit 0: the rest is a plaintext, enciphered here (bit 1: PKCS#1 v1.5, else OAEP)
//   mode bit 2: the server accepts PKCS#1 v1.5 as well (--use-pkcs1-padding)
//
// Expected outcome: nullopt (a token that is not base64, not for this key, or not in iperf3's
// layout) and a refused decision. read_authtoken and authenticate throw nothing for a token.
// Findings: any exception, a crash, a claim whose name or password is not one word, a decision
// that differs from the users file's answer, and a claim our own client (make_authtoken) cannot
// send so that it reads back the same.
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "hil/iperf3/auth.hpp"
#include "hil/sys/text_file.hpp"

namespace {

namespace iperf3 = hil::iperf3;
using hil::fuzz::finding;

struct key_pair {
  iperf3::rsa_key public_key;
  iperf3::rsa_key private_key;
};

// The test key pair, read once.
const key_pair& keys() {
  static const key_pair pair = [] {
    const std::string dir = HIL_FUZZ_AUTH_DIR;
    return key_pair{iperf3::rsa_key::public_from_pem(
                        hil::sys::read_text_file(dir + "/public.pem", 1U << 16U), "public.pem"),
                    iperf3::rsa_key::private_from_pem(
                        hil::sys::read_text_file(dir + "/private.pem", 1U << 16U), "private.pem")};
  }();
  return pair;
}

// plain enciphered with the public key and written in base64, as a client sends a token; empty
// when it is too long for the key with that padding.
std::string encipher(std::string_view plain, iperf3::rsa_padding padding) {
  using ctx_ptr = std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)>;
  const ctx_ptr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, keys().public_key.get(), nullptr),
                    &EVP_PKEY_CTX_free);
  const int code =
      padding == iperf3::rsa_padding::oaep ? RSA_PKCS1_OAEP_PADDING : RSA_PKCS1_PADDING;
  std::size_t len = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(plain.data());
  if (!ctx || EVP_PKEY_encrypt_init(ctx.get()) <= 0 ||
      EVP_PKEY_CTX_set_rsa_padding(ctx.get(), code) <= 0 ||
      EVP_PKEY_encrypt(ctx.get(), nullptr, &len, in, plain.size()) <= 0) {
    return {};
  }
  std::vector<unsigned char> cipher(len);
  if (EVP_PKEY_encrypt(ctx.get(), cipher.data(), &len, in, plain.size()) <= 0) return {};
  std::string text(4 * ((len + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data()), cipher.data(),
                                static_cast<int>(len));
  text.resize(static_cast<std::size_t>(n));
  return text;
}

// Whether s is one word, as iperf3's server reads a name or a password.
bool is_word(std::string_view s) {
  return !s.empty() &&
         s.find_first_of(std::string_view(" \t\n\v\f\r\0", 7)) == std::string_view::npos;
}

// A claim read from a token: the server's decision must follow it and the users file, and our
// client must be able to send the same claim.
void check_claim(const iperf3::auth_claim& claim, const std::string& token, std::string_view users,
                 bool accept_pkcs1, std::uint8_t mode) {
  if (!is_word(claim.who.username) || !is_word(claim.who.password)) {
    finding("a claim whose name or password is not one word");
  }
  const std::int64_t skew = (mode >> 3U) % 24;  // 0..23 s, against a threshold of 10
  const auto now = static_cast<std::int64_t>(static_cast<std::uint64_t>(claim.unix_seconds) + skew);
  if (now - skew != claim.unix_seconds) return;  // the clock would wrap: no such server
  const auto d = iperf3::authenticate(token, keys().private_key, users, now, 10, accept_pkcs1);
  const bool expected = skew <= 10 && iperf3::users_file_admits(users, claim.who);
  if (d.admitted != expected || d.username != claim.who.username) {
    finding("a decision that does not follow the claim and the users file");
  }
  const std::string again =
      iperf3::make_authtoken(claim.who, keys().public_key, claim.padding, claim.unix_seconds);
  const auto back = iperf3::read_authtoken(again, keys().private_key, accept_pkcs1);
  if (!back || back->who.username != claim.who.username ||
      back->who.password != claim.who.password || back->unix_seconds != claim.unix_seconds) {
    finding("a claim that does not survive make_authtoken and read_authtoken");
  }
}

}  // namespace

// Loads the key pair before the first input, so its cost is not counted as one.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  (void)keys();
  return 0;
}

// One input: a token (or a plaintext to encipher) and a users file.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  const std::string_view rest = hil::fuzz::as_text(data + 1, size - 1);
  const std::size_t nul = rest.find('\0');
  const std::string_view first = rest.substr(0, nul);
  const std::string_view users =
      nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  const bool accept_pkcs1 = (mode & 4U) != 0;

  std::string token(first);
  if ((mode & 1U) != 0) {
    token =
        encipher(first, (mode & 2U) != 0 ? iperf3::rsa_padding::pkcs1 : iperf3::rsa_padding::oaep);
    if (token.empty()) return 0;
  }
  const auto claim = iperf3::read_authtoken(token, keys().private_key, accept_pkcs1);
  if (claim) {
    check_claim(*claim, token, users, accept_pkcs1, mode);
  } else if ((mode & 1U) == 0) {
    // A token that does not decipher is refused whatever the clock and the users file say.
    if (iperf3::authenticate(token, keys().private_key, users, 0, 10, accept_pkcs1).admitted) {
      finding("a token read_authtoken refused was admitted");
    }
  }
  (void)iperf3::users_file_admits(users, {"alice", "hilperf-test-secret"});
  return 0;
}
