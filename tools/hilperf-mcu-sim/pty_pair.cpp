#include "pty_pair.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <system_error>

#include "hil/sys/error.hpp"

namespace hil::mcu_sim {

pty_pair::pty_pair() : master_(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)) {
  if (!master_) sys::throw_last_errno("posix_openpt");
  if (::grantpt(master_.get()) != 0) sys::throw_last_errno("grantpt");
  if (::unlockpt(master_.get()) != 0) sys::throw_last_errno("unlockpt");
  std::array<char, 128> name{};
  if (const int e = ::ptsname_r(master_.get(), name.data(), name.size()); e != 0) {
    sys::throw_errno(e, "ptsname_r");
  }
  slave_path_ = name.data();
  slave_ = sys::unique_fd(::open(slave_path_.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!slave_) sys::throw_last_errno("open " + slave_path_);
  termios t{};
  if (::tcgetattr(slave_.get(), &t) != 0) sys::throw_last_errno("tcgetattr " + slave_path_);
  ::cfmakeraw(&t);
  if (::tcsetattr(slave_.get(), TCSANOW, &t) != 0) {
    sys::throw_last_errno("tcsetattr " + slave_path_);
  }
  const int flags = ::fcntl(master_.get(), F_GETFL);
  if (flags < 0 || ::fcntl(master_.get(), F_SETFL, flags | O_NONBLOCK) != 0) {
    sys::throw_last_errno("fcntl O_NONBLOCK on the pty master");
  }
}

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

}  // namespace hil::mcu_sim
