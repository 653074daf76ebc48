// The on-disk journal behind LinkGuard: before a test changes a link setting, the original value is
// written here; after it is restored, the record is removed. When a process dies without restoring
// (SIGKILL, crash, power cut of the runner), the next run finds the record and puts the value back.
//
//   <dir>/<netns inode>-<ifname>.json   one record per link, atomically replaced (write + rename)
//   { "pid": 1234, "start_time": 98765, "netns_inode": 4026532281, "ifname": "eth0",
//     "changes": [ { "setting": "mtu", "original": 1500 } ] }
//
// One record per link also serialises tests: a live process owning a record holds that link.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hil::link {

// A setting a guard can change and restore.
enum class link_setting { mtu, admin_up };

// Text names used in the journal and in messages ("mtu", "admin_up").
std::string_view setting_name(link_setting s);

// One changed setting and the value it had before the first change.
struct journal_change {
  link_setting setting = link_setting::mtu;
  long original = 0;
};

// Everything one process changed on one link.
struct journal_record {
  pid_t pid = 0;                      // the process that made the changes
  unsigned long long start_time = 0;  // its start time (/proc/<pid>/stat), against pid reuse
  unsigned long netns_inode = 0;      // the network namespace the link lives in
  std::string ifname;
  std::vector<journal_change> changes;  // in the order they were first made
};

// The record in a journal file's text (the layout above). Throws std::invalid_argument saying
// what is wrong: not JSON, nested too deeply, a missing field, or one of the wrong type or range.
[[nodiscard]] journal_record parse_journal_record(std::string_view text);

// Identity of a process that survives pid reuse: pid plus its start time.
struct process_identity {
  pid_t pid = 0;
  unsigned long long start_time = 0;
};
// This process.
process_identity self_identity();
// True when the process that wrote a record still runs.
bool is_alive(const process_identity& who);

class link_journal {
 public:
  // Uses (and creates, mode 0700) dir; throws std::system_error naming dir when it cannot.
  explicit link_journal(std::filesystem::path dir);

  // $HILPERF_STATE_DIR when set, else /run/hilperf (cleared at boot, as link settings are).
  static std::filesystem::path default_dir();

  // Replaces the record for (record.netns_inode, record.ifname) atomically.
  void write(const journal_record& record) const;
  // Removes the record for the link; absent is fine.
  void remove(unsigned long netns_inode, const std::string& ifname) const;
  // The record for the link, if any; an unreadable record is reported as a system_error.
  [[nodiscard]] std::optional<journal_record> read(unsigned long netns_inode,
                                                   const std::string& ifname) const;
  // Every record for links in the given namespace.
  [[nodiscard]] std::vector<journal_record> records_in(unsigned long netns_inode) const;
  [[nodiscard]] const std::filesystem::path& dir() const noexcept { return dir_; }

 private:
  [[nodiscard]] std::filesystem::path file_for(unsigned long netns_inode,
                                               const std::string& ifname) const;
  std::filesystem::path dir_;  // where the records live
};

}  // namespace hil::link
