#include "run_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <fstream>
#include <sstream>

#include "hil/sys/error.hpp"

namespace hil::mcu_sim {

symlink_guard::symlink_guard(std::string target, std::string link)
    : target_(std::move(target)), link_(std::move(link)) {
  struct stat st {};
  if (::lstat(link_.c_str(), &st) == 0) {
    if (!S_ISLNK(st.st_mode)) {
      sys::throw_errno(EEXIST, link_ + " exists and is not a symbolic link: not replaced");
    }
    if (::unlink(link_.c_str()) != 0) sys::throw_last_errno("unlink " + link_);
  }
  if (::symlink(target_.c_str(), link_.c_str()) != 0) {
    sys::throw_last_errno("symlink " + link_ + " -> " + target_);
  }
}

symlink_guard::~symlink_guard() {
  std::array<char, 256> points{};
  const ssize_t n = ::readlink(link_.c_str(), points.data(), points.size() - 1);
  if (n > 0 && std::string(points.data(), static_cast<std::size_t>(n)) == target_) {
    ::unlink(link_.c_str());
  }
}

pid_file::pid_file(std::string path)
    : path_(std::move(path)), text_(std::to_string(::getpid()) + "\n") {
  const std::string partial = path_ + ".partial";
  {
    std::ofstream out(partial, std::ios::trunc);
    out << text_;
    out.close();
    if (!out) sys::throw_errno(errno != 0 ? errno : EIO, "cannot write " + partial);
  }
  if (::rename(partial.c_str(), path_.c_str()) != 0) sys::throw_last_errno("rename to " + path_);
}

pid_file::~pid_file() {
  std::ifstream in(path_);
  std::stringstream held;
  held << in.rdbuf();
  if (held.str() == text_) ::unlink(path_.c_str());
}

}  // namespace hil::mcu_sim
