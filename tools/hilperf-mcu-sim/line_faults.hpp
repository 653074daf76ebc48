// What a bad serial line does to the bytes, for the fault switches: a console that loses bytes the
// host typed (every Nth), and one read at the wrong baud rate (every byte arrives as another,
// none of them printable). Pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hil::mcu_sim {

// Drops every Nth byte received (N = every; 0: none), at most limit of them (0: no limit).
class byte_dropper {
 public:
  byte_dropper(std::uint64_t every, std::uint64_t limit) : every_(every), limit_(limit) {}
  // True when the next received byte is lost.
  [[nodiscard]] bool drop() noexcept;

 private:
  std::uint64_t every_;
  std::uint64_t limit_;
  std::uint64_t seen_ = 0;
  std::uint64_t dropped_ = 0;
};

// bytes as a receiver at the wrong baud rate sees them: each byte another, in 0x80..0xff (so no
// text, no line end, no control sequence survives), the same bytes the same garbage.
[[nodiscard]] std::string garbled(std::string_view bytes);

}  // namespace hil::mcu_sim
