// hil_board_shell: a Linux board's serial console for the project's own tests. The command given
// (a shell, `sh -i`) runs on a pseudo-terminal of its own as its controlling terminal, as a getty
// runs one on a board's UART; a second pseudo-terminal's slave stands for the runner's USB-serial
// device; the bytes between the two masters are relayed here, both ways, buffered so that neither
// direction waits for the other. The runner may open, close and reopen the device while the shell
// keeps running (the device's slave is held open here, as a UART stays). Started in a bench's DUT
// namespace, the shell and what it runs are on the board's network.
//
// Prints "console <device path>" once ready; ends when the shell exits or on SIGTERM/SIGINT
// (the shell then gets SIGHUP, as at a hang-up). Usage: hil_board_shell <command> [arguments…]
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "hil/sys/unique_fd.hpp"

namespace {

volatile std::sig_atomic_t stop_requested = 0;
extern "C" void on_stop(int) { stop_requested = 1; }

[[noreturn]] void fail(const char* what) {
  std::perror(what);
  std::exit(1);
}

void set_nonblocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) fail("fcntl");
}

// One direction of the relay: what was read from `from` and not yet written to `to`.
struct relay {
  int from;
  int to;
  std::string pending;
  bool closed = false;  // `from` reached its end (the shell's side: it exited)

  void read_more() {
    std::array<char, 4096> buffer{};
    const ssize_t n = ::read(from, buffer.data(), buffer.size());
    if (n > 0) pending.append(buffer.data(), static_cast<std::size_t>(n));
    if (n == 0 || (n < 0 && errno == EIO)) closed = true;
  }
  void write_some() {
    const ssize_t n = ::write(to, pending.data(), pending.size());
    if (n > 0) pending.erase(0, static_cast<std::size_t>(n));
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: hil_board_shell <command> [arguments…]\n";
    return 2;
  }
  hil::sys::unique_fd device_master(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!device_master || ::grantpt(device_master.get()) != 0 ||
      ::unlockpt(device_master.get()) != 0) {
    fail("posix_openpt");
  }
  const std::string device = ::ptsname(device_master.get());
  const hil::sys::unique_fd device_slave(::open(device.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!device_slave) fail("open the device's slave");
  termios raw{};
  ::tcgetattr(device_slave.get(), &raw);
  ::cfmakeraw(&raw);
  ::tcsetattr(device_slave.get(), TCSANOW, &raw);

  int shell_master_fd = -1;
  const pid_t shell = ::forkpty(&shell_master_fd, nullptr, nullptr, nullptr);
  if (shell < 0) fail("forkpty");
  if (shell == 0) {
    ::execvp(argv[1], argv + 1);
    std::perror(argv[1]);
    ::_exit(127);
  }
  const hil::sys::unique_fd shell_master(shell_master_fd);
  set_nonblocking(device_master.get());
  set_nonblocking(shell_master.get());
  std::signal(SIGTERM, on_stop);
  std::signal(SIGINT, on_stop);
  std::cout << "console " << device << std::endl;

  relay typed{device_master.get(), shell_master.get(), {}, false};
  relay printed{shell_master.get(), device_master.get(), {}, false};
  while (stop_requested == 0 && !printed.closed) {
    // Neither buffer grows past a bound: the side that fills it waits, as on a line with flow
    // control.
    constexpr std::size_t bound = 64 * 1024;
    std::array<pollfd, 2> fds{{{device_master.get(), 0, 0}, {shell_master.get(), 0, 0}}};
    if (typed.pending.size() < bound) fds[0].events |= POLLIN;
    if (printed.pending.size() < bound) fds[1].events |= POLLIN;
    if (!typed.pending.empty()) fds[1].events |= POLLOUT;
    if (!printed.pending.empty()) fds[0].events |= POLLOUT;
    if (::poll(fds.data(), fds.size(), 500) < 0) {
      if (errno == EINTR) continue;
      fail("poll");
    }
    if ((fds[0].revents & POLLIN) != 0) typed.read_more();
    if ((fds[1].revents & (POLLIN | POLLHUP)) != 0) printed.read_more();
    if ((fds[1].revents & POLLOUT) != 0) typed.write_some();
    if ((fds[0].revents & POLLOUT) != 0) printed.write_some();
  }
  ::kill(shell, SIGHUP);
  int status = 0;
  ::waitpid(shell, &status, 0);
  return 0;
}
