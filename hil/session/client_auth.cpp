#include "hil/session/client_auth.hpp"

#include <cstdlib>
#include <ctime>
#include <system_error>

#include <fmt/format.h>

#include "hil/sys/text_file.hpp"

namespace hil::session {

client_auth load_client_auth(const std::string& username, const std::string& public_key_path,
                             bool pkcs1_padding) {
  const char* password = std::getenv("IPERF3_PASSWORD");  // NOLINT(concurrency-mt-unsafe)
  if (password == nullptr || *password == '\0') {
    throw std::system_error(
        std::make_error_code(std::errc::invalid_argument),
        fmt::format("user \"{}\" needs a password: set IPERF3_PASSWORD (as for iperf3 -c "
                    "--username; it is never prompted for)",
                    username));
  }
  constexpr std::size_t max_key_file = 64 * 1024;
  client_auth auth{{username, password},
                   iperf3::rsa_key::public_from_pem(
                       sys::read_text_file(public_key_path, max_key_file), public_key_path),
                   pkcs1_padding ? iperf3::rsa_padding::pkcs1 : iperf3::rsa_padding::oaep};
  (void)authtoken_now(auth);  // a name, password or key iperf3 cannot use fails here, not later
  return auth;
}

std::string authtoken_now(const std::optional<client_auth>& auth) {
  if (!auth) return {};
  return iperf3::make_authtoken(auth->who, auth->public_key, auth->padding,
                                static_cast<std::int64_t>(std::time(nullptr)));
}

std::string auth_refusal_hint(const std::optional<client_auth>& auth) {
  if (!auth) {
    return "the server requires iperf3 authentication: give --username and "
           "--rsa-public-key-path (board profile: peer.username, peer.rsa_public_key_path) and "
           "the password in IPERF3_PASSWORD";
  }
  return fmt::format(
      "it refused user \"{}\": check the user and IPERF3_PASSWORD against its authorized users "
      "file, that the public key is its private key's pair, that the two clocks agree within its "
      "skew threshold (10 s unless --time-skew-threshold), and the padding ({} sent: a server "
      "before iperf3 3.17 reads only PKCS#1 v1.5, --use-pkcs1-padding; one from 3.17 on reads "
      "that only when started with --use-pkcs1-padding)",
      auth->who.username, iperf3::padding_name(auth->padding));
}

}  // namespace hil::session
