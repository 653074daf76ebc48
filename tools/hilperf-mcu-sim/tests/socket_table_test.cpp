// Whether a run's server port is open (socket_table.hpp), on the kernel's socket tables.
#include "socket_table.hpp"

#include <gtest/gtest.h>

#include <string>

namespace hil::mcu_sim {
namespace {

// /proc/net/tcp and udp as Linux 6.1 writes them: a server's port is open once listed (TCP: in
// state 0A, LISTEN).
TEST(McuSimSocketTable, FindsAListeningOrBoundPort) {
  const std::string tcp =
      "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
      "timeout inode\n"
      "   0: 00000000:1389 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        "
      "0 1187 1 0000000000000000 100 0 0 10 0\n"
      "   1: 0A00000A:D2F0 C30000C6:1389 01 00000000:00000000 00:00000000 00000000     0        "
      "0 1188 1 0000000000000000 20 4 30 10 -1\n";
  EXPECT_TRUE(table_has_port(tcp, 5001, true));
  EXPECT_FALSE(table_has_port(tcp, 5002, true));
  EXPECT_FALSE(table_has_port(tcp, 54000, true)) << "0xD2F0 is connected, not listening";
  EXPECT_TRUE(table_has_port(tcp, 54000, false));
  const std::string udp6 =
      "  sl  local_address                         remote_address                        st "
      "tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n"
      "  7: 00000000000000000000000000000000:1389 00000000000000000000000000000000:0000 07 "
      "00000000:00000000 00:00000000 00000000     0        0 2211 2 0000000000000000 0\n";
  EXPECT_TRUE(table_has_port(udp6, 5001, false));
  EXPECT_FALSE(table_has_port("", 5001, false));
}

}  // namespace
}  // namespace hil::mcu_sim
