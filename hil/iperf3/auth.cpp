#include "hil/iperf3/auth.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <system_error>
#include <vector>

#include <fmt/format.h>

namespace hil::iperf3 {
namespace {

[[noreturn]] void refuse(const std::string& message) {
  throw std::system_error(std::make_error_code(std::errc::invalid_argument), message);
}

// The reason OpenSSL gave for its last failure, or a fallback; clears its error queue.
std::string openssl_reason() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "no reason given";
  std::array<char, 256> buf{};
  ERR_error_string_n(code, buf.data(), buf.size());
  return buf.data();
}

using bio_ptr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using ctx_ptr = std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)>;

bio_ptr memory_bio(std::string_view text) {
  bio_ptr bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())), &BIO_free);
  if (!bio) throw std::bad_alloc();
  return bio;
}

std::shared_ptr<evp_pkey_st> own(EVP_PKEY* key) { return {key, &EVP_PKEY_free}; }

// A passphrase callback that supplies none: a protected key fails instead of prompting.
int no_passphrase(char* /*buf*/, int /*size*/, int /*rwflag*/, void* asked) {
  *static_cast<bool*>(asked) = true;
  return 0;
}

void require_rsa(const EVP_PKEY* key, std::string_view what) {
  if (EVP_PKEY_is_a(key, "RSA") == 0) {
    refuse(fmt::format("{} is not an RSA key (iperf3 authenticates with RSA only)", what));
  }
}

int padding_code(rsa_padding p) {
  return p == rsa_padding::oaep ? RSA_PKCS1_OAEP_PADDING : RSA_PKCS1_PADDING;
}

std::string base64_encode(const std::vector<unsigned char>& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes.data(),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

// Strict base64 (no line breaks, as iperf3 writes it); nullopt when it is not.
std::optional<std::vector<unsigned char>> base64_decode(std::string_view text) {
  if (text.empty() || text.size() % 4 != 0) return std::nullopt;
  std::vector<unsigned char> out(text.size() / 4 * 3);
  const int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the '=' padding as zero bytes.
  std::size_t len = static_cast<std::size_t>(n);
  if (text.back() == '=') --len;
  if (text[text.size() - 2] == '=') --len;
  out.resize(len);
  return out;
}

ctx_ptr context_for(const rsa_key& key) {
  ctx_ptr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr), &EVP_PKEY_CTX_free);
  if (!ctx) throw std::bad_alloc();
  return ctx;
}

std::optional<std::string> decrypt(const std::vector<unsigned char>& cipher, const rsa_key& key,
                                   rsa_padding padding) {
  const ctx_ptr ctx = context_for(key);
  std::size_t len = 0;
  if (EVP_PKEY_decrypt_init(ctx.get()) <= 0 ||
      EVP_PKEY_CTX_set_rsa_padding(ctx.get(), padding_code(padding)) <= 0 ||
      EVP_PKEY_decrypt(ctx.get(), nullptr, &len, cipher.data(), cipher.size()) <= 0) {
    ERR_clear_error();
    return std::nullopt;
  }
  std::string plain(len, '\0');
  if (EVP_PKEY_decrypt(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()), &len,
                       cipher.data(), cipher.size()) <= 0) {
    ERR_clear_error();
    return std::nullopt;
  }
  plain.resize(len);
  return plain;
}

bool is_word(std::string_view s) {
  return !s.empty() && std::none_of(s.begin(), s.end(), [](char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0 || c == '\0';
  });
}

// The text layout iperf3 encrypts (its auth_text_format), exactly as a stock client writes it.
constexpr std::string_view user_tag = "user: ";
constexpr std::string_view pwd_tag = "\npwd:  ";
constexpr std::string_view ts_tag = "\nts:   ";

std::optional<auth_claim> parse_plaintext(std::string_view text) {
  if (text.substr(0, user_tag.size()) != user_tag) return std::nullopt;
  const auto pwd_at = text.find(pwd_tag);
  const auto ts_at = text.find(ts_tag);
  if (pwd_at == std::string_view::npos || ts_at == std::string_view::npos || ts_at < pwd_at) {
    return std::nullopt;
  }
  auth_claim claim;
  claim.who.username = std::string(text.substr(user_tag.size(), pwd_at - user_tag.size()));
  claim.who.password =
      std::string(text.substr(pwd_at + pwd_tag.size(), ts_at - pwd_at - pwd_tag.size()));
  const std::string_view ts = text.substr(ts_at + ts_tag.size());
  const auto [end, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), claim.unix_seconds);
  if (ec != std::errc() || end != ts.data() + ts.size()) return std::nullopt;
  if (!is_word(claim.who.username) || !is_word(claim.who.password)) return std::nullopt;
  return claim;
}

}  // namespace

std::string_view padding_name(rsa_padding p) noexcept {
  return p == rsa_padding::oaep ? "OAEP" : "PKCS#1 v1.5";
}

rsa_key rsa_key::public_from_pem(std::string_view pem, std::string_view what) {
  const bio_ptr bio = memory_bio(pem);
  EVP_PKEY* key = PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr);
  if (key == nullptr) {
    refuse(
        fmt::format("{} is not a PEM public key ({}); iperf3 wants the \"BEGIN PUBLIC KEY\" "
                    "form: openssl rsa -in private.pem -pubout -out public.pem",
                    what, openssl_reason()));
  }
  rsa_key out(own(key));
  require_rsa(key, what);
  return out;
}

rsa_key rsa_key::private_from_pem(std::string_view pem, std::string_view what) {
  const bio_ptr bio = memory_bio(pem);
  bool asked = false;
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio.get(), nullptr, &no_passphrase, &asked);
  if (key == nullptr) {
    const std::string reason = openssl_reason();
    if (asked) {
      refuse(
          fmt::format("{} is protected by a passphrase, which a server cannot ask for; store "
                      "it unprotected: openssl rsa -in private.pem -out "
                      "private_not_protected.pem",
                      what));
    }
    refuse(fmt::format("{} is not a PEM private key ({})", what, reason));
  }
  rsa_key out(own(key));
  require_rsa(key, what);
  return out;
}

int rsa_key::bits() const noexcept { return EVP_PKEY_get_bits(key_.get()); }

std::string make_authtoken(const credentials& c, const rsa_key& public_key, rsa_padding padding,
                           std::int64_t unix_seconds) {
  if (!is_word(c.username) || !is_word(c.password)) {
    refuse(
        "an iperf3 username and password must each be one word: not empty, no spaces or line "
        "breaks (the server reads each as one word)");
  }
  const std::string text =
      fmt::format("{}{}{}{}{}{}", user_tag, c.username, pwd_tag, c.password, ts_tag, unix_seconds);
  const ctx_ptr ctx = context_for(public_key);
  std::size_t len = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
  if (EVP_PKEY_encrypt_init(ctx.get()) <= 0 ||
      EVP_PKEY_CTX_set_rsa_padding(ctx.get(), padding_code(padding)) <= 0 ||
      EVP_PKEY_encrypt(ctx.get(), nullptr, &len, in, text.size()) <= 0) {
    refuse(fmt::format("cannot encrypt the credentials with this key ({})", openssl_reason()));
  }
  std::vector<unsigned char> cipher(len);
  if (EVP_PKEY_encrypt(ctx.get(), cipher.data(), &len, in, text.size()) <= 0) {
    refuse(
        fmt::format("the username and password ({} bytes with the time stamp) are too long "
                    "for a {}-bit key with {} padding ({})",
                    text.size(), public_key.bits(), padding_name(padding), openssl_reason()));
  }
  cipher.resize(len);
  return base64_encode(cipher);
}

std::optional<auth_claim> read_authtoken(std::string_view token, const rsa_key& private_key,
                                         bool accept_pkcs1) {
  const auto cipher = base64_decode(token);
  if (!cipher) return std::nullopt;
  for (const rsa_padding padding : {rsa_padding::oaep, rsa_padding::pkcs1}) {
    if (padding == rsa_padding::pkcs1 && !accept_pkcs1) break;
    const auto plain = decrypt(*cipher, private_key, padding);
    if (!plain) continue;
    if (auto claim = parse_plaintext(*plain)) {
      claim->padding = padding;
      return claim;
    }
  }
  return std::nullopt;
}

std::string password_hash(const credentials& c) {
  const std::string salted = fmt::format("{{{}}}{}", c.username, c.password);
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int len = 0;
  if (EVP_Digest(salted.data(), salted.size(), digest.data(), &len, EVP_sha256(), nullptr) != 1) {
    throw std::bad_alloc();
  }
  std::string hex;
  for (unsigned int i = 0; i < len; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

bool users_file_admits(std::string_view users_file, const credentials& c) {
  const std::string hash = password_hash(c);
  while (!users_file.empty()) {
    const auto eol = users_file.find('\n');
    std::string_view line = users_file.substr(0, eol);
    users_file = eol == std::string_view::npos ? std::string_view() : users_file.substr(eol + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto comma = line.find(',');
    if (comma == std::string_view::npos) continue;
    std::string_view stored = line.substr(comma + 1);
    stored = stored.substr(0, stored.find(','));  // iperf3 reads the second field only
    if (line.substr(0, comma) == c.username && stored == hash) return true;
  }
  return false;
}

auth_decision authenticate(const std::optional<std::string>& token, const rsa_key& private_key,
                           std::string_view users_file, std::int64_t now_unix_seconds,
                           std::int64_t skew_threshold_s, bool accept_pkcs1) {
  auth_decision d;
  if (!token) {
    d.reason = "the client sent no credentials (iperf3 --username and --rsa-public-key-path)";
    return d;
  }
  const auto claim = read_authtoken(*token, private_key, accept_pkcs1);
  if (!claim) {
    // The client is told nothing more; the log says whether PKCS#1 v1.5 would have read it.
    if (!accept_pkcs1 && read_authtoken(*token, private_key, true)) {
      d.reason =
          "its authtoken is in PKCS#1 v1.5 padding (an iperf3 client before 3.17); start the "
          "server with --use-pkcs1-padding to accept such clients";
    } else if (token->empty()) {
      d.reason =
          "its authtoken is empty (iperf3 3.17–3.19 clients send none with some OpenSSL 3 "
          "builds, esnet/iperf#1951: such a client cannot authenticate to any server)";
    } else {
      d.reason =
          "its authtoken does not decipher with this server's private key (the client's public "
          "key is not this key's pair)";
    }
    return d;
  }
  d.username = claim->who.username;
  const std::int64_t skew = now_unix_seconds - claim->unix_seconds;
  if (skew > skew_threshold_s || skew < -skew_threshold_s) {
    d.reason = fmt::format(
        "user \"{}\": the client's clock is {} s {} this server's, more than the {} s allowed "
        "(--time-skew-threshold)",
        d.username, std::abs(skew), skew > 0 ? "behind" : "ahead of", skew_threshold_s);
    return d;
  }
  if (!users_file_admits(users_file, claim->who)) {
    d.reason = fmt::format("user \"{}\" is not in the authorized users file with that password",
                           d.username);
    return d;
  }
  d.admitted = true;
  return d;
}

}  // namespace hil::iperf3
