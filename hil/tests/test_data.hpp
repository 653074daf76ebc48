// Captured files under hil/tests/data/ (golden bytes and documents from stock peers), read whole.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace hil::test {

// The contents of hil/tests/data/<name>; a file that cannot be opened fails the test naming it.
inline std::string test_data(const std::string& name) {
  const std::string path = std::string(HIL_SOURCE_DIR) + "/hil/tests/data/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace hil::test
