// The processes running now, as /proc lists them: one walk over its numeric directories for every
// caller that looks processes up (CPU use, a port's owner, a kernel thread by name).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace hil::sys {

// The pids /proc lists now (its numeric directory names), ascending; empty when /proc cannot be
// read. A process may end between this call and the caller's read of it: callers skip those.
[[nodiscard]] std::vector<pid_t> process_ids();

// The name the kernel keeps for pid (/proc/<pid>/comm without its newline: at most 15 characters,
// "napi/eth0-8193" for a kernel thread); empty when pid has ended.
[[nodiscard]] std::string process_name(pid_t pid);

}  // namespace hil::sys
