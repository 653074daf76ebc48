#include "hil/sys/process_list.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "hil/sys/proc_text.hpp"

namespace hil::sys {

std::vector<pid_t> process_ids() {
  std::vector<pid_t> pids;
  std::error_code ec;  // an unreadable /proc gives no pids, a read error mid-walk ends the list
  for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (const auto pid = leading_number(name)) pids.push_back(static_cast<pid_t>(*pid));
  }
  std::sort(pids.begin(), pids.end());
  return pids;
}

std::string process_name(pid_t pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

}  // namespace hil::sys
