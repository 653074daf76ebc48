#include "hil/sys/netns.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <thread>

#include <fmt/format.h>

#include "hil/sys/error.hpp"
#include "hil/sys/unique_fd.hpp"

namespace hil::sys {
namespace {
std::string netns_path(const std::string& name) { return "/run/netns/" + name; }
}  // namespace

bool netns_exists(const std::string& name) {
  struct stat st {};
  return ::stat(netns_path(name).c_str(), &st) == 0;
}

namespace {
// setns() of the calling thread into the network namespace name.
void join_netns(const std::string& name) {
  const unique_fd ns(::open(netns_path(name).c_str(), O_RDONLY | O_CLOEXEC));
  if (!ns) {
    throw_last_errno(
        fmt::format("cannot open network namespace '{}' ({}); is the simulated bench up? "
                    "run: hilperf-testbed up",
                    name, netns_path(name)));
  }
  if (::setns(ns.get(), CLONE_NEWNET) != 0) {
    throw_last_errno(
        fmt::format("setns into network namespace '{}' (needs CAP_SYS_ADMIN: run as root)", name));
  }
}
}  // namespace

void with_socket_namespace(const std::string& name, const std::function<void()>& body) {
  std::exception_ptr failed;
  std::thread([&] {
    try {
      join_netns(name);
      body();
    } catch (...) {
      failed = std::current_exception();
    }
  }).join();
  if (failed) std::rethrow_exception(failed);
}

void enter_netns(const std::string& name) {
  join_netns(name);
  // A private mount namespace, so remounting /sys does not touch the host's view.
  if (::unshare(CLONE_NEWNS) != 0) throw_last_errno("unshare(CLONE_NEWNS) for " + name);
  if (::mount("", "/", "none", MS_SLAVE | MS_REC, nullptr) != 0) {
    throw_last_errno("making / a slave mount in namespace " + name);
  }
  // sysfs shows the network devices of the namespace that mounted it.
  ::umount2("/sys", MNT_DETACH);  // may fail when /sys was not mounted; the mount below decides
  if (::mount(name.c_str(), "/sys", "sysfs", 0, nullptr) != 0) {
    throw_last_errno("mounting sysfs for network namespace " + name);
  }
}

unsigned long current_netns_inode() {
  struct stat st {};
  if (::stat("/proc/thread-self/ns/net", &st) != 0)
    throw_last_errno("stat /proc/thread-self/ns/net");
  return st.st_ino;
}

}  // namespace hil::sys

namespace hil::sys {
namespace {

volatile sig_atomic_t forward_to = 0;  // the child signals are forwarded to; 0 when none

extern "C" void forward_signal(int sig) {
  if (forward_to > 0) ::kill(forward_to, sig);
}

}  // namespace

int run_in_netns(const std::string& name, const std::function<int()>& body) {
  std::fflush(nullptr);  // the child must not repeat buffered output
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) throw_last_errno("fork for network namespace " + name);
  if (child == 0) {
    int rc = 1;
    try {
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (::getppid() != parent) ::_exit(1);  // the parent died before prctl took effect
      for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::signal(sig, SIG_DFL);
      enter_netns(name);
      rc = body();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "hilperf: %s\n", e.what());
    }
    std::fflush(nullptr);
    ::_exit(rc);
  }
  forward_to = child;
  struct sigaction sa {};
  sa.sa_handler = forward_signal;
  sigemptyset(&sa.sa_mask);
  std::array<struct sigaction, 3> old{};
  const std::array<int, 3> sigs{SIGINT, SIGTERM, SIGHUP};
  for (std::size_t i = 0; i < sigs.size(); ++i) ::sigaction(sigs[i], &sa, &old[i]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  for (std::size_t i = 0; i < sigs.size(); ++i) ::sigaction(sigs[i], &old[i], nullptr);
  forward_to = 0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace hil::sys
