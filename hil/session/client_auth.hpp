// The credentials a client proves to a server that requires iperf3's RSA authentication
// (iperf3/auth.hpp): iperf3 -c --username --rsa-public-key-path, the password from
// IPERF3_PASSWORD, --use-pkcs1-padding for servers before 3.17. Used by the iperf3 client and the
// workload client alike.
#pragma once

#include <optional>
#include <string>

#include "hil/iperf3/auth.hpp"

namespace hil::session {

struct client_auth {
  iperf3::credentials who;
  iperf3::rsa_key public_key;
  iperf3::rsa_padding padding = iperf3::rsa_padding::oaep;
};

// The credentials as iperf3's client takes them: the username, the server's public key read from
// public_key_path (PEM), the password from the environment variable IPERF3_PASSWORD (never
// prompted for: the suite runs unattended). Throws std::system_error naming what is missing or
// wrong: no IPERF3_PASSWORD, an unreadable or wrong key file, a name or password iperf3 cannot
// carry.
[[nodiscard]] client_auth load_client_auth(const std::string& username,
                                           const std::string& public_key_path, bool pkcs1_padding);

// The authtoken to send now; empty without auth (no "authtoken" key is then sent).
[[nodiscard]] std::string authtoken_now(const std::optional<client_auth>& auth);

// What to check when a server refuses a test's authentication, for the error message.
[[nodiscard]] std::string auth_refusal_hint(const std::optional<client_auth>& auth);

}  // namespace hil::session
