// Restoring guarded links when the process is told to stop (SIGINT, SIGTERM, SIGHUP).
//
// A signal handler cannot talk netlink safely, so the signals are blocked in every thread and one
// dedicated thread waits for them with sigwait(): it restores every link this process journaled,
// then lets the signal end the process with its default action, so the exit status still says what
// happened. SIGKILL cannot be caught; the journal covers it in the next run (recover_links).
#pragma once

#include <filesystem>

namespace hil::link {

// Starts the restoring thread once per process; later calls do nothing. Call it from the main
// thread before any other thread starts (they inherit the blocked signal mask) and after entering
// the network namespace the links live in (the thread inherits that too).
void restore_links_on_signal(const std::filesystem::path& journal_dir);

}  // namespace hil::link
