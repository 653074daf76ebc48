// What every fuzz target shares: the input seen as the decoders take it, and the one way a target
// reports a finding. libFuzzer records a finding as a crash (the input is written as crash-<sha1>
// and the run fails), as it does a sanitizer report, a leak, a timeout or an exception that
// escapes the target, which is how a decoder throwing a type its contract does not name shows up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>
#include <system_error>

namespace hil::fuzz {

// The input as text.
[[nodiscard]] inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input as bytes.
[[nodiscard]] inline std::span<const std::uint8_t> as_bytes(const std::uint8_t* data,
                                                            std::size_t size) {
  return {data, size};
}

// A broken property: says which and aborts, so libFuzzer keeps the input that broke it.
[[noreturn]] inline void finding(std::string_view what) {
  std::fprintf(stderr, "hilperf fuzz finding: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

// A thrown std::system_error is an expected outcome only with the code the decoder's contract
// names (std::errc::protocol_error for the wire decoders); any other code is a finding.
inline void expect_code(const std::system_error& e, std::errc code, std::string_view decoder) {
  if (e.code() != std::make_error_code(code)) {
    std::fprintf(stderr, "%.*s threw: %s\n", static_cast<int>(decoder.size()), decoder.data(),
                 e.what());
    finding("a std::system_error with a code its contract does not name");
  }
}

}  // namespace hil::fuzz
