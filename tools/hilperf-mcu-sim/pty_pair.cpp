#include "pty_pair.hpp"

#include <fcntl.h>
#include <stdlib.h>
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

}  // namespace hil::mcu_sim
