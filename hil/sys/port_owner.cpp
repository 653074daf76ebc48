#include "hil/sys/port_owner.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "hil/sys/process_list.hpp"

namespace hil::sys {
namespace {

namespace fs = std::filesystem;

// The socket inode listening on port, from one /proc/net/tcp* table.
std::optional<std::string> listening_inode(const char* table, std::uint16_t port) {
  std::ifstream in(table);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string slot, local, remote, st, queues, timer, retr, uid, timeout, inode;
    f >> slot >> local >> remote >> st >> queues >> timer >> retr >> uid >> timeout >> inode;
    const auto colon = local.rfind(':');
    if (colon == std::string::npos || st != "0A") continue;  // 0A = LISTEN
    if (std::strtoul(local.c_str() + colon + 1, nullptr, 16) == port) return inode;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> tcp_port_owner(std::uint16_t port) {
  auto inode = listening_inode("/proc/net/tcp", port);
  if (!inode) inode = listening_inode("/proc/net/tcp6", port);
  if (!inode) return std::nullopt;
  const std::string target = "socket:[" + *inode + "]";
  for (const pid_t pid : process_ids()) {
    std::error_code ec;
    for (const auto& fd : fs::directory_iterator(fmt::format("/proc/{}/fd", pid), ec)) {
      std::error_code link_ec;
      if (fs::read_symlink(fd.path(), link_ec).string() != target) continue;
      return fmt::format("{} (pid {})", process_name(pid), pid);
    }
  }
  return std::nullopt;
}

}  // namespace hil::sys
