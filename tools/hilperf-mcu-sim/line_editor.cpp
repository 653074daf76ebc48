#include "line_editor.hpp"

namespace hil::mcu_sim {

std::optional<std::string> line_editor::feed(char c, std::string& echo) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte != '\r' && byte != '\n') last_end_ = 0;
  if (escape_ == 1) {
    escape_ = byte == '[' ? 2 : 0;
    return std::nullopt;
  }
  if (escape_ == 2) {
    if (byte >= 0x40 && byte <= 0x7e) escape_ = 0;  // the sequence's final byte
    return std::nullopt;
  }
  if (byte == '\r' || byte == '\n') {
    if (one_line_end_ && last_end_ != 0 && c != last_end_) return std::nullopt;
    last_end_ = c;
    echo += '\n';
    const bool dropped = too_long_;
    std::string line = std::move(line_);
    clear();
    if (dropped) return std::nullopt;
    return line;
  }
  if (byte == '\b' || byte == 0x7f) {
    if (!line_.empty()) {
      line_.pop_back();
      echo += "\b \b";
    }
    return std::nullopt;
  }
  if (byte == 0x1b) {
    escape_ = 1;
    return std::nullopt;
  }
  if (byte < 0x20 || byte > 0x7e) return std::nullopt;
  echo += c;
  if (line_.size() >= max_line_) {
    too_long_ = true;
  } else {
    line_ += c;
  }
  return std::nullopt;
}

void line_editor::clear() noexcept {
  line_.clear();
  too_long_ = false;
  escape_ = 0;
}

}  // namespace hil::mcu_sim
