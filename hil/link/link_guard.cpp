#include "hil/link/link_guard.hpp"

#include <algorithm>
#include <ranges>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hil/link/addresses.hpp"
#include "hil/sys/error.hpp"
#include "hil/sys/netns.hpp"

namespace hil::link {
namespace {

constexpr int ipv6_min_mtu = 1280;  // RFC 8200: below it the kernel disables IPv6 on the link
constexpr std::chrono::milliseconds ipv6_settle_timeout{3000};  // DAD: 1 s per probe by default

// The current value of a setting.
long current_value(link_control& link, const std::string& ifname, link_setting s) {
  const link_info i = link.info(ifname);
  return s == link_setting::mtu ? i.mtu : static_cast<long>(i.admin_up);
}

// Sets a setting back to value.
void apply(link_control& link, const std::string& ifname, link_setting s, long value) {
  if (s == link_setting::mtu) {
    link.set_mtu(ifname, static_cast<int>(value));
  } else {
    link.set_admin_up(ifname, value != 0);
  }
}

std::string describe(link_setting s, long value) {
  if (s == link_setting::admin_up) return value != 0 ? "up" : "down";
  return std::to_string(value);
}

// Restores a record's changes in reverse order; returns "mtu 3000 -> 1500" parts, throws on the
// first failure after trying every change.
std::string restore_changes(link_control& link, const std::string& ifname,
                            const std::vector<journal_change>& changes) {
  std::vector<std::string> done;
  std::vector<std::string> failed;
  // rbegin/rend, not std::views::reverse: clang 14 (the fuzz build) cannot compile libstdc++ 12's
  // views over a const vector.
  for (auto it = changes.rbegin(); it != changes.rend(); ++it) {
    const journal_change& c = *it;
    try {
      const long now = current_value(link, ifname, c.setting);
      if (now != c.original) apply(link, ifname, c.setting, c.original);
      done.push_back(fmt::format("{} {} -> {}", setting_name(c.setting), describe(c.setting, now),
                                 describe(c.setting, c.original)));
    } catch (const std::exception& e) {
      failed.push_back(fmt::format("{} back to {}: {}", setting_name(c.setting),
                                   describe(c.setting, c.original), e.what()));
    }
  }
  if (!failed.empty()) {
    throw std::system_error(
        std::make_error_code(std::errc::io_error),
        fmt::format("could not restore {}: {}", ifname, fmt::join(failed, "; ")));
  }
  return fmt::format("{}", fmt::join(done, ", "));
}

// Restores and removes one record; the link vanishing counts as restored (nothing left to fix).
std::string restore_record(link_control& link, const link_journal& journal, const journal_record& r,
                           std::string_view why) {
  std::string line;
  if (!link.exists(r.ifname)) {
    line = fmt::format("dropped the journal of {}: the interface no longer exists", r.ifname);
  } else {
    line = fmt::format("restored {}: {} ({})", r.ifname, restore_changes(link, r.ifname, r.changes),
                       why);
  }
  journal.remove(r.netns_inode, r.ifname);
  return line;
}

}  // namespace

link_guard::link_guard(link_control& link, const link_journal& journal, std::string ifname)
    : link_(link),
      journal_(journal),
      ifname_(std::move(ifname)),
      netns_inode_(sys::current_netns_inode()),
      owner_(self_identity()) {
  (void)link_.info(ifname_);  // a missing interface fails here, listing the ones that exist
  if (const auto r = journal_.read(netns_inode_, ifname_)) {
    if (is_alive({r->pid, r->start_time}) && r->pid != owner_.pid) {
      throw std::system_error(EBUSY, std::system_category(),
                              fmt::format("{} is being changed by process {} (another hilperf "
                                          "test?); its journal is {}",
                                          ifname_, r->pid, journal_.dir().string()));
    }
    const auto line = restore_record(
        link_, journal_, *r, fmt::format("left changed by pid {}, which did not finish", r->pid));
    std::fprintf(stderr, "hilperf: %s\n", line.c_str());
  }
}

link_guard::~link_guard() {
  try {
    restore();
  } catch (const std::exception& e) {
    sys::report_destructor_failure("link_guard", e.what());
  }
}

void link_guard::remember(link_setting setting, long original) {
  const bool known =
      std::ranges::any_of(changes_, [&](const auto& c) { return c.setting == setting; });
  if (known) return;  // restore goes back to the value before the first change
  changes_.push_back({setting, original});
  journal_.write({owner_.pid, owner_.start_time, netns_inode_, ifname_, changes_});
}

void link_guard::set_mtu(int mtu) {
  remember(link_setting::mtu, link_.mtu(ifname_));
  if (mtu < ipv6_min_mtu && ipv6_before_.empty()) ipv6_before_ = ipv6_addresses(link_, ifname_);
  link_.set_mtu(ifname_, mtu);
  // A change up from below 1280 re-creates the link-local address: let its DAD finish, so the
  // case measures the link, not address resolution (bounded; DAD takes a second by default).
  (void)wait_ipv6_settled(link_, ifname_, ipv6_settle_timeout);
}

void link_guard::set_admin_up(bool up) {
  remember(link_setting::admin_up, link_.info(ifname_).admin_up ? 1 : 0);
  link_.set_admin_up(ifname_, up);
}

void link_guard::restore() {
  if (changes_.empty()) return;
  restore_changes(link_, ifname_, changes_);  // throws, keeping the record for the next run
  if (!ipv6_before_.empty()) restore_ipv6_addresses(link_, ifname_, ipv6_before_);
  (void)wait_ipv6_settled(link_, ifname_,
                          ipv6_settle_timeout);  // the next case starts on a ready link
  journal_.remove(netns_inode_, ifname_);
  changes_.clear();
  ipv6_before_.clear();
}

std::vector<std::string> recover_links(link_control& link, const link_journal& journal) {
  std::vector<std::string> lines;
  for (const auto& r : journal.records_in(sys::current_netns_inode())) {
    if (is_alive({r.pid, r.start_time})) continue;  // a running test (or this one) holds that link
    lines.push_back(restore_record(
        link, journal, r, fmt::format("left changed by pid {}, which did not finish", r.pid)));
  }
  return lines;
}

std::vector<std::string> restore_own_links(link_control& link, const link_journal& journal) {
  std::vector<std::string> lines;
  const process_identity self = self_identity();
  for (const auto& r : journal.records_in(sys::current_netns_inode())) {
    if (r.pid != self.pid || r.start_time != self.start_time) continue;
    lines.push_back(restore_record(link, journal, r, "restored on signal"));
  }
  return lines;
}

}  // namespace hil::link
