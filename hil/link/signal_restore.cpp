#include "hil/link/signal_restore.hpp"

#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <mutex>
#include <thread>

#include "hil/link/link_guard.hpp"

namespace hil::link {
namespace {

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

// Body of the restoring thread: wait, restore, re-raise.
void wait_and_restore(const std::filesystem::path& journal_dir) {
  const sigset_t set = stop_signals();
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
  std::fprintf(stderr, "hilperf: signal %d: restoring links before exit\n", sig);
  try {
    link_control link;
    const link_journal journal(journal_dir);
    for (const auto& line : restore_own_links(link, journal)) {
      std::fprintf(stderr, "hilperf: %s\n", line.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hilperf: restoring links on signal failed: %s (the next run retries)\n",
                 e.what());
  }
  std::fflush(stderr);
  // Default action, unblocked in this thread only: the signal now ends the process.
  ::signal(sig, SIG_DFL);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(sig);
}

}  // namespace

void restore_links_on_signal(const std::filesystem::path& journal_dir) {
  static std::once_flag once;
  std::call_once(once, [&] {
    const sigset_t set = stop_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(wait_and_restore, journal_dir).detach();
  });
}

}  // namespace hil::link
