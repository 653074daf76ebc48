// Entering a named network namespace the way `ip netns exec` does, so that sockets, netlink and
// /sys/class/net all see that namespace.
#pragma once

#include <functional>
#include <string>

namespace hil::sys {

// True when /run/netns/<name> exists (a namespace made by `ip netns add`).
bool netns_exists(const std::string& name);

// Moves the calling process into network namespace `name` for the rest of its life: setns() on the
// network namespace, a private mount namespace, and a fresh sysfs on /sys so /sys/class/net shows
// the namespace's interfaces. Call it before any thread starts (threads keep the namespace they
// had). Throws std::system_error naming the namespace and the step that failed.
void enter_netns(const std::string& name);

// Runs body on a thread of its own that entered network namespace `name` (setns only, no mount
// namespace) and waits for it: a socket body opens (a netlink socket) stays in that namespace for
// its life and may be used from any thread afterwards, while the calling process stays where it
// was. An exception body throws, or the failure to enter (std::system_error naming the namespace),
// is rethrown here.
void with_socket_namespace(const std::string& name, const std::function<void()>& body);

// The inode of the calling thread's network namespace: identifies it in journals.
unsigned long current_netns_inode();

// Runs body in a forked child that first enters network namespace `name`, and returns the child's
// exit status (128+signal when a signal ended it). SIGINT, SIGTERM and SIGHUP sent to this process
// are forwarded to the child, and the child gets SIGTERM if this process dies, so the child's own
// cleanup (link restore) always runs. An exception escaping body prints and exits 1.
int run_in_netns(const std::string& name, const std::function<int()>& body);

}  // namespace hil::sys
