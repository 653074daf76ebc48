#include "hil/sys/cpu_cgroup.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <system_error>

#include "hil/sys/error.hpp"
#include "hil/sys/text_file.hpp"

namespace hil::sys {

namespace {

namespace fs = std::filesystem;

const fs::path cgroup_root = "/sys/fs/cgroup";
constexpr long period_us = 100'000;

// Writes value to a cgroup file; the kernel answers a refused value on the write itself.
void write_value(const fs::path& file, const std::string& value) {
  std::ofstream out(file);
  out << value << std::flush;
  if (!out) throw_errno(errno == 0 ? EINVAL : errno, "writing " + value + " to " + file.string());
}

}  // namespace

cpu_cgroup::cpu_cgroup(const std::string& tag, int percent_of_a_core, const std::string& cpus)
    : percent_(percent_of_a_core), cpus_(cpus) {
  if (percent_ < 0 || percent_ > 100'000) {
    throw std::invalid_argument("a CPU quota is 0 (none) to 100000 % of a core, not " +
                                std::to_string(percent_));
  }
  const std::string name = "hilperf-" + tag + std::to_string(::getpid());
  const fs::path cpu = cgroup_root / "cpu";
  const fs::path acct = cgroup_root / "cpuacct";
  if (!fs::exists(cpu / "cpu.cfs_quota_us")) {
    throw std::system_error(std::make_error_code(std::errc::not_supported),
                            "no cgroup v1 cpu controller at " + cpu.string());
  }
  const auto make = [this](const fs::path& dir) {
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      throw_last_errno("creating the cgroup " + dir.string());
    }
    dirs_.push_back(dir);
  };
  make(cpu / name);
  try {
    write_value(dirs_[0] / "cpu.cfs_period_us", std::to_string(period_us));
    write_value(dirs_[0] / "cpu.cfs_quota_us",
                percent_ == 0 ? "-1" : std::to_string(period_us * percent_ / 100));
    if (fs::exists(dirs_[0] / "cpuacct.usage")) {  // cpu,cpuacct mounted together
      usage_dir_ = dirs_[0];
    } else {
      make(acct / name);
      usage_dir_ = dirs_[1];
    }
    write_value(usage_dir_ / "cpuacct.usage", "0");
    if (!cpus_.empty()) {
      const fs::path cpuset = cgroup_root / "cpuset";
      if (!fs::exists(cpuset / "cpuset.cpus")) {
        throw std::system_error(std::make_error_code(std::errc::not_supported),
                                "no cgroup v1 cpuset controller at " + cpuset.string());
      }
      make(cpuset / name);
      // A cpuset takes no task before it has memory nodes: the parent's.
      write_value(dirs_.back() / "cpuset.mems",
                  read_text_file((cpuset / "cpuset.mems").string(), 4096));
      write_value(dirs_.back() / "cpuset.cpus", cpus_);
    }
  } catch (...) {
    for (const auto& d : dirs_) ::rmdir(d.c_str());
    throw;
  }
}

cpu_cgroup::~cpu_cgroup() {
  for (const pid_t tid : adopted_) {
    for (const auto& d : dirs_) {
      try {
        write_value(d.parent_path() / "tasks", std::to_string(tid));
      } catch (const std::system_error& e) {
        if (e.code() != std::errc::no_such_process) std::cerr << "cpu_cgroup: " << e.what() << '\n';
      }
    }
  }
  for (const auto& d : dirs_) {
    if (::rmdir(d.c_str()) != 0) {
      std::cerr << "cpu_cgroup: could not remove " << d.string() << ": "
                << std::error_code(errno, std::system_category()).message() << '\n';
    }
  }
}

void cpu_cgroup::adopt(pid_t tid) {
  adopted_.push_back(tid);
  for (const auto& d : dirs_) write_value(d / "tasks", std::to_string(tid));
}

std::vector<std::string> cpu_cgroup::command(const std::vector<std::string>& argv) const {
  std::string script;
  for (std::size_t i = 0; i < dirs_.size(); ++i) {
    script += "echo $$ > \"$" + std::to_string(i) + "/cgroup.procs\" && ";
  }
  script += "shift " + std::to_string(dirs_.size() - 1) + " && exec \"$@\"";
  std::vector<std::string> out{"sh", "-c", script};
  for (const auto& d : dirs_) out.push_back(d.string());
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

namespace {

// A cpuacct counter of nanoseconds.
std::chrono::nanoseconds read_ns(const fs::path& file) {
  const std::string text = read_text_file(file.string(), 64);
  try {
    return std::chrono::nanoseconds(std::stoll(text));
  } catch (const std::exception&) {
    throw std::system_error(
        std::make_error_code(std::errc::bad_message),
        "reading " + file.string() + ": '" + text + "' is not a count of nanoseconds");
  }
}

}  // namespace

std::chrono::nanoseconds cpu_cgroup::used() const { return read_ns(usage_dir_ / "cpuacct.usage"); }

cpu_cgroup::mode_split cpu_cgroup::used_by_mode() const {
  return {read_ns(usage_dir_ / "cpuacct.usage_user"), read_ns(usage_dir_ / "cpuacct.usage_sys")};
}

}  // namespace hil::sys
