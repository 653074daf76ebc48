#include "hil/shell/digest.hpp"

#include <openssl/evp.h>

#include <array>
#include <regex>
#include <stdexcept>

#include <fmt/format.h>

namespace hil::shell {

std::string sha256_hex(std::string_view bytes) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("OpenSSL could not compute a SHA-256");
  }
  std::string hex;
  hex.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

std::string base64_lines(std::string_view bytes, std::size_t line_length) {
  if (line_length == 0 || line_length % 4 != 0) {
    throw std::invalid_argument(
        fmt::format("base64 line length {} is not a multiple of 4", line_length));
  }
  const std::size_t chunk = line_length / 4 * 3;  // input bytes per full line
  std::string out;
  out.reserve((bytes.size() / chunk + 1) * (line_length + 1));
  std::string line(line_length + 1, '\0');  // EVP_EncodeBlock writes a terminating NUL
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    const std::size_t n = std::min(chunk, bytes.size() - at);
    const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(line.data()),
                                        reinterpret_cast<const unsigned char*>(bytes.data() + at),
                                        static_cast<int>(n));
    out.append(line.data(), static_cast<std::size_t>(written));
    out += '\n';
  }
  return out;
}

bool is_base64_line(std::string_view line) {
  if (line.empty()) return false;
  for (const char c : line) {
    const bool alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                          (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
    if (!alphabet) return false;
  }
  return true;
}

std::string_view base64_fragment(std::string_view line) {
  // A kernel message: "[", spaces, seconds "123.456789", "]", then anything to the line's end.
  static const std::regex message(R"(\[ *[0-9]+\.[0-9]+\].*$)");
  std::cmatch m;
  if (std::regex_search(line.data(), line.data() + line.size(), m, message)) {
    line = line.substr(0, static_cast<std::size_t>(m.position(0)));
  }
  return is_base64_line(line) ? line : std::string_view{};
}

std::optional<std::string> from_base64(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  if (text.empty()) return std::string{};
  const auto padding = text.find('=');
  if (padding != std::string_view::npos &&
      (padding < text.size() - 2 ||
       text.find_first_not_of('=', padding) != std::string_view::npos)) {
    return std::nullopt;
  }
  for (const char c : text) {
    if (!is_base64_line(std::string_view(&c, 1))) return std::nullopt;
  }
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the padding's bytes as zeros.
  const std::size_t pad = padding == std::string_view::npos ? 0 : text.size() - padding;
  out.resize(static_cast<std::size_t>(n) - pad);
  return out;
}

}  // namespace hil::shell
