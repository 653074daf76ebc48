// Read-only view of /sys/class/net/<if>/…: the second, independent read-back path next to netlink,
// and the place the kernel reports negotiated speed and duplex.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace hil::link {

class sysfs_reader {
 public:
  // root is normally /sys/class/net; tests pass a directory of their own.
  explicit sysfs_reader(std::filesystem::path root = "/sys/class/net");

  // The MTU as /sys/class/net/<if>/mtu reports it. Throws std::system_error when unreadable.
  [[nodiscard]] int mtu(const std::string& ifname) const;
  // Negotiated speed in Mb/s; nullopt when the driver reports none (-1, link down, EINVAL).
  [[nodiscard]] std::optional<int> speed_mbps(const std::string& ifname) const;
  // "full", "half" or "unknown" (the kernel's words; unreadable counts as unknown).
  [[nodiscard]] std::string duplex(const std::string& ifname) const;
  // The kernel's operstate word: up, down, lowerlayerdown, dormant, testing, notpresent, unknown.
  [[nodiscard]] std::string operstate(const std::string& ifname) const;

 private:
  // The trimmed content of <root>/<if>/<attr>, or nullopt with errno-derived error in err.
  [[nodiscard]] std::optional<std::string> read_attr(const std::string& ifname, const char* attr,
                                                     int& err) const;
  std::filesystem::path root_;  // directory holding one subdirectory per interface
};

}  // namespace hil::link
