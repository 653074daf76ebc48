// A directory of the test's own under $TMPDIR, removed with everything in it on destruction.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace hil::test {

class temp_dir {
 public:
  // Creates <tmp>/<prefix>-XXXXXX (mode 0700); throws std::system_error when it cannot.
  explicit temp_dir(const std::string& prefix) {
    std::string templ = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(templ.data()) == nullptr) {
      throw std::system_error(errno, std::system_category(), "mkdtemp " + templ);
    }
    path_ = templ;
  }
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;  // the directory
};

}  // namespace hil::test
