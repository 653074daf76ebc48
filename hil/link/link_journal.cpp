#include "hil/link/link_journal.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hil/sys/error.hpp"
#include "hil/sys/json_depth.hpp"
#include "hil/sys/unique_fd.hpp"

namespace hil::link {
namespace {

using nlohmann::json;

link_setting setting_from(const std::string& name) {
  if (name == "mtu") return link_setting::mtu;
  if (name == "admin_up") return link_setting::admin_up;
  throw std::invalid_argument("unknown link setting '" + name + "'");
}

json to_json(const journal_record& r) {
  json changes = json::array();
  for (const auto& c : r.changes) {
    changes.push_back({{"setting", setting_name(c.setting)}, {"original", c.original}});
  }
  return {{"pid", r.pid},
          {"start_time", r.start_time},
          {"netns_inode", r.netns_inode},
          {"ifname", r.ifname},
          {"changes", changes}};
}

// j[key] as a T: present, a whole number (not a fraction or a string) and within T's range. A
// number nlohmann reads as a double (beyond 64 bits, or with an exponent) is refused, never cast:
// out of range, that cast is undefined behaviour (found by fuzz/link_journal.cpp).
template <typename T>
T integer_at(const json& j, const char* key) {
  const json& v = j.at(key);
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (std::in_range<T>(u)) return static_cast<T>(u);
  } else if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    if (std::in_range<T>(i)) return static_cast<T>(i);
  } else {
    throw std::invalid_argument(fmt::format("\"{}\" is not an integer", key));
  }
  throw std::invalid_argument(fmt::format("\"{}\" = {} is out of range", key, v.dump()));
}

journal_record from_json(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("not a JSON object");
  journal_record r;
  r.pid = integer_at<pid_t>(j, "pid");
  r.start_time = integer_at<unsigned long long>(j, "start_time");
  r.netns_inode = integer_at<unsigned long>(j, "netns_inode");
  r.ifname = j.at("ifname").get<std::string>();
  const json& changes = j.at("changes");
  if (!changes.is_array()) throw std::invalid_argument("\"changes\" is not an array");
  for (const auto& c : changes) {
    r.changes.push_back(
        {setting_from(c.at("setting").get<std::string>()), integer_at<long>(c, "original")});
  }
  return r;
}

// What /proc/<pid>/stat says about a process: state (field 3) and start time in clock ticks since
// boot (field 22). state is '\0' when the process does not exist.
struct proc_stat {
  char state = '\0';
  unsigned long long start_time = 0;
};

proc_stat read_proc_stat(pid_t pid) {
  std::ifstream in(fmt::format("/proc/{}/stat", pid));
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close_paren = stat.rfind(')');  // the command name may contain spaces and parens
  if (close_paren == std::string::npos) return {};
  std::istringstream fields(stat.substr(close_paren + 2));
  proc_stat out;
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
    if (i == 3) out.state = field.at(0);
    if (i == 22) out.start_time = std::strtoull(field.c_str(), nullptr, 10);
  }
  return out;
}

}  // namespace

std::string_view setting_name(link_setting s) {
  switch (s) {
    case link_setting::mtu:
      return "mtu";
    case link_setting::admin_up:
      return "admin_up";
  }
  return "unknown";
}

journal_record parse_journal_record(std::string_view text) {
  if (sys::json_too_deep(text)) throw std::invalid_argument("nested too deeply");
  try {
    return from_json(json::parse(text));
  } catch (const json::exception& e) {
    throw std::invalid_argument(e.what());
  }
}

process_identity self_identity() { return {::getpid(), read_proc_stat(::getpid()).start_time}; }

bool is_alive(const process_identity& who) {
  if (who.pid <= 0) return false;
  if (::kill(who.pid, 0) != 0 && errno == ESRCH) return false;
  const proc_stat now = read_proc_stat(who.pid);
  if (now.state == 'Z' || now.state == 'X') return false;  // killed, not yet reaped: gone
  // An unreadable /proc (hidepid) cannot prove the writer gone: treat it as alive.
  return now.state == '\0' || who.start_time == 0 || now.start_time == who.start_time;
}

link_journal::link_journal(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) {
    throw std::system_error(ec, fmt::format("cannot create the link journal directory {} (set "
                                            "HILPERF_STATE_DIR to a writable directory)",
                                            dir_.string()));
  }
  ::chmod(dir_.c_str(), 0700);
}

std::filesystem::path link_journal::default_dir() {
  const char* env = std::getenv("HILPERF_STATE_DIR");  // NOLINT(concurrency-mt-unsafe): read once
  return env != nullptr && *env != '\0' ? std::filesystem::path(env) : "/run/hilperf";
}

std::filesystem::path link_journal::file_for(unsigned long netns_inode,
                                             const std::string& ifname) const {
  return dir_ / fmt::format("{}-{}.json", netns_inode, ifname);
}

void link_journal::write(const journal_record& record) const {
  const auto target = file_for(record.netns_inode, record.ifname);
  const auto tmp = target.string() + ".tmp";
  const std::string text = to_json(record).dump(2) + "\n";
  {
    const sys::unique_fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (!fd) sys::throw_last_errno("cannot write link journal " + tmp);
    // fsync before rename: after a power cut the record is either the old or the new one.
    if (::write(fd.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size()) ||
        ::fsync(fd.get()) != 0) {
      sys::throw_last_errno("cannot write link journal " + tmp);
    }
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    sys::throw_last_errno("cannot install link journal " + target.string());
  }
}

void link_journal::remove(unsigned long netns_inode, const std::string& ifname) const {
  const auto file = file_for(netns_inode, ifname);
  if (::unlink(file.c_str()) != 0 && errno != ENOENT) {
    sys::throw_last_errno("cannot remove link journal " + file.string());
  }
}

std::optional<journal_record> link_journal::read(unsigned long netns_inode,
                                                 const std::string& ifname) const {
  const auto file = file_for(netns_inode, ifname);
  std::ifstream in(file);
  if (!in) return std::nullopt;
  try {
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return parse_journal_record(text);
  } catch (const std::exception& e) {
    throw std::system_error(std::make_error_code(std::errc::illegal_byte_sequence),
                            fmt::format("link journal {} is damaged ({}); check the link by hand "
                                        "and delete the file",
                                        file.string(), e.what()));
  }
}

std::vector<journal_record> link_journal::records_in(unsigned long netns_inode) const {
  std::vector<journal_record> out;
  const std::string prefix = fmt::format("{}-", netns_inode);
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || entry.path().extension() != ".json") continue;
    const std::string ifname = name.substr(prefix.size(), name.size() - prefix.size() - 5);
    if (auto r = read(netns_inode, ifname)) out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace hil::link
