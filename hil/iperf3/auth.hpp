// iperf3's RSA authentication (3.5+): the client proves a username and password to a server that
// holds an RSA private key and a file of authorized users. One field of the parameter message
// carries it (params.hpp):
//
//   "authtoken": base64( RSA_encrypt( public key, "user: alice\npwd:  s3cret\nts:   1764612345" ) )
//
//   padding: clients from 3.17 on send OAEP (SHA-1, MGF1 SHA-1), clients before 3.17 PKCS#1 v1.5.
//   Servers before 3.17 read PKCS#1 v1.5 only; from 3.17 on OAEP, and PKCS#1 v1.5 as well when
//   started with --use-pkcs1-padding ("at your own risk": it is open to padding-oracle attacks).
//   Nothing on the wire says which was used.
//   ts: the client's Unix time; a server refuses a token more than its skew threshold (10 s)
//   away from its own clock.
//   users file (--authorized-users-path), one user per line, '#' comments, blank lines skipped:
//     alice,<hex sha256 of "{alice}s3cret">
//
// A stock server refuses a failed authentication with SERVER_ERROR 142 "test authorization
// failed" (3.12–3.16) or by closing the control connection (3.17+). Pure functions over bytes:
// the keys and the users file come in as text (sys/text_file.hpp reads them).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct evp_pkey_st;  // OpenSSL's EVP_PKEY; only auth.cpp sees OpenSSL

namespace hil::iperf3 {

enum class rsa_padding { oaep, pkcs1 };

[[nodiscard]] std::string_view padding_name(rsa_padding p) noexcept;  // "OAEP", "PKCS#1 v1.5"

// An RSA key read from PEM text. Throws std::system_error (invalid_argument) saying what the text
// is not and how iperf3's documentation makes the right one; `what` names the source (a path).
class rsa_key {
 public:
  // "-----BEGIN PUBLIC KEY-----" (openssl rsa -in private.pem -pubout -out public.pem).
  static rsa_key public_from_pem(std::string_view pem, std::string_view what);
  // An unprotected private key, "BEGIN PRIVATE KEY" or "BEGIN RSA PRIVATE KEY"; a passphrase-
  // protected one is refused (a server cannot ask for the passphrase), never prompted for.
  static rsa_key private_from_pem(std::string_view pem, std::string_view what);

  [[nodiscard]] int bits() const noexcept;
  [[nodiscard]] evp_pkey_st* get() const noexcept { return key_.get(); }

 private:
  explicit rsa_key(std::shared_ptr<evp_pkey_st> key) : key_(std::move(key)) {}
  std::shared_ptr<evp_pkey_st> key_;
};

struct credentials {
  std::string username;
  std::string password;
};

// The authtoken a client sends for c at unix_seconds. Throws std::system_error (invalid_argument)
// when iperf3 could not read it back: an empty name or password, whitespace in either (the
// server reads each as one word), or a text too long for the key with that padding.
[[nodiscard]] std::string make_authtoken(const credentials& c, const rsa_key& public_key,
                                         rsa_padding padding, std::int64_t unix_seconds);

// What a server reads from a token.
struct auth_claim {
  credentials who;
  std::int64_t unix_seconds = 0;
  rsa_padding padding = rsa_padding::oaep;  // the one that deciphered it
};

// Deciphers a token with OAEP, and with PKCS#1 v1.5 too when accept_pkcs1; nullopt when it is
// not base64, not for this key, not in that padding, or not in iperf3's text layout.
[[nodiscard]] std::optional<auth_claim> read_authtoken(std::string_view token,
                                                       const rsa_key& private_key,
                                                       bool accept_pkcs1);

// The users file's hash of c: lower-case hex SHA-256 of "{username}password".
[[nodiscard]] std::string password_hash(const credentials& c);

// Whether the users file text (its format above, CRLF or LF) lists c with that password.
[[nodiscard]] bool users_file_admits(std::string_view users_file, const credentials& c);

// A server's decision on a test's authtoken (absent when the client sent none).
struct auth_decision {
  bool admitted = false;
  std::string username;  // as claimed, when the token could be read
  std::string reason;    // why not, for the server's log (never sent to the client)
};
[[nodiscard]] auth_decision authenticate(const std::optional<std::string>& token,
                                         const rsa_key& private_key, std::string_view users_file,
                                         std::int64_t now_unix_seconds,
                                         std::int64_t skew_threshold_s, bool accept_pkcs1);

}  // namespace hil::iperf3
