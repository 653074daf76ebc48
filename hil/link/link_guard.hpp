// LinkGuard: RAII for every change a test makes to a link (docs/code-style.md rule 7).
//
//   guard.set_mtu(3000)        journal {mtu: original}  ->  change  ->  verified read-back
//   ...test...
//   guard.restore() / ~guard   restore in reverse order ->  verify  ->  remove journal record
//
//   the process dies instead   the journal record stays; recover_links() in the next run (or the
//                              signal thread, for SIGINT/SIGTERM/SIGHUP) puts the originals back.
//
// restore() throws when a setting cannot be put back (the record then stays for the next run); the
// destructor restores too but only reports, so fixtures call restore() in TearDown to fail the
// test.
#pragma once

#include <string>
#include <vector>

#include "hil/link/link_control.hpp"
#include "hil/link/link_journal.hpp"

namespace hil::link {

class link_guard {
 public:
  // Guards ifname in the calling thread's network namespace. Throws EBUSY when a live process
  // already holds the link's journal record; a record left by a dead process is restored first.
  link_guard(link_control& link, const link_journal& journal, std::string ifname);
  ~link_guard();
  link_guard(const link_guard&) = delete;
  link_guard& operator=(const link_guard&) = delete;

  // Changes the MTU (journalled first; verified through netlink and sysfs). Below 1280 the kernel
  // drops the link's IPv6 addresses; restore() puts them back.
  void set_mtu(int mtu);
  // Sets the interface administratively up or down (journalled first).
  void set_admin_up(bool up);
  // Restores every changed setting in reverse order; throws std::system_error listing each one
  // that could not be restored. Idempotent.
  void restore();
  // True while some setting is changed and not yet restored.
  [[nodiscard]] bool dirty() const noexcept { return !changes_.empty(); }
  [[nodiscard]] const std::string& ifname() const noexcept { return ifname_; }

 private:
  // Journals the original value of setting (first change only) before it is changed.
  void remember(link_setting setting, long original);

  link_control& link_;                    // the namespace's netlink control
  const link_journal& journal_;           // where originals are written before each change
  std::string ifname_;                    // the guarded interface
  unsigned long netns_inode_;             // the namespace ifname lives in
  process_identity owner_;                // this process, as written into the journal
  std::vector<journal_change> changes_;   // originals, in first-change order
  std::vector<std::string> ipv6_before_;  // IPv6 addresses an MTU below 1280 makes the kernel drop
};

// Puts back what processes that are gone left changed in the calling thread's network namespace
// and removes their records. Returns one line per link, e.g.
// "restored eth0: mtu 3000 -> 1500 (left changed by pid 4242, which did not finish)".
// Records of live processes are left alone. Throws when a restore fails.
std::vector<std::string> recover_links(link_control& link, const link_journal& journal);

// Restores the records this process owns in the calling thread's namespace (the signal path).
std::vector<std::string> restore_own_links(link_control& link, const link_journal& journal);

}  // namespace hil::link
