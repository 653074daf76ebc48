#include "line_faults.hpp"

namespace hil::mcu_sim {

bool byte_dropper::drop() noexcept {
  if (every_ == 0 || (limit_ != 0 && dropped_ >= limit_)) return false;
  if (++seen_ % every_ != 0) return false;
  ++dropped_;
  return true;
}

std::string garbled(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += static_cast<char>(0x80 | ((b * 37U + 11U) & 0x7fU));
  }
  return out;
}

}  // namespace hil::mcu_sim
