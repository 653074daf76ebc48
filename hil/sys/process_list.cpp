#include "hil/sys/process_list.hpp"

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <string_view>

#include "hil/sys/proc_text.hpp"

namespace hil::sys {

std::vector<pid_t> process_ids() {
  std::vector<pid_t> pids;
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) return pids;
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view name = e->d_name;
    if (name.find_first_not_of("0123456789") != std::string_view::npos) continue;
    if (const auto pid = leading_number(name)) pids.push_back(static_cast<pid_t>(*pid));
  }
  ::closedir(dir);
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
