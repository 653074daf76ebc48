// Link control on a real veth pair (hil/tests/netns/netns_main.cpp puts us in its DUT namespace).
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <optional>
#include <system_error>

#include "hil/link/link_control.hpp"
#include "hil/measure/link_checks.hpp"
#include "hil/sys/netns.hpp"
#include "hil/sys/process.hpp"
#include "hil/sys/unique_fd.hpp"
#include "hil/tests/netns/test_bench.hpp"

namespace {

using ::testing::HasSubstr;

class LinkControl : public ::testing::Test {
 protected:
  void TearDown() override { link_.set_mtu(dut_, 1500); }

  hil::link::link_control link_;
  const hil::bench::sim_layout& layout_ = hil::test::run_layout();
  std::string dut_ = layout_.dut_interface;
};

TEST_F(LinkControl, ReadsTheSameMtuThroughNetlinkAndSysfs) {
  EXPECT_EQ(link_.mtu(dut_), 1500);
  EXPECT_EQ(link_.sysfs().mtu(dut_), 1500);
}

TEST_F(LinkControl, ReportsTheDriverMtuRange) {
  const auto info = link_.info(dut_);
  EXPECT_EQ(info.min_mtu, 68);  // veth: ETH_MIN_MTU .. ETH_MAX_MTU
  EXPECT_EQ(info.max_mtu, 65535);
}

TEST_F(LinkControl, SetMtuReadsBackThroughBothPaths) {
  for (int mtu : {576, 3000, 9000, 1500}) {
    link_.set_mtu(dut_, mtu);
    EXPECT_EQ(link_.mtu(dut_), mtu);
    EXPECT_EQ(link_.sysfs().mtu(dut_), mtu);
  }
}

TEST_F(LinkControl, MissingInterfaceListsTheOnesThatExist) {
  try {
    (void)link_.info("nosuch0");
    FAIL() << "info() on a missing interface must throw";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_device);
    EXPECT_THAT(e.what(), HasSubstr("no interface 'nosuch0'"));
    EXPECT_THAT(e.what(), HasSubstr("lo, dut0"));
  }
  EXPECT_FALSE(link_.exists("nosuch0"));
  EXPECT_TRUE(link_.exists(dut_));
}

TEST_F(LinkControl, MtuBelowTheDriverMinimumNamesTheRange) {
  try {
    link_.set_mtu(dut_, 67);
    FAIL() << "MTU 67 must be refused";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::invalid_argument);
    EXPECT_THAT(e.what(), HasSubstr("MTU 67 is outside the range 68..65535"));
    EXPECT_THAT(e.what(), HasSubstr(dut_));
  }
  EXPECT_EQ(link_.mtu(dut_), 1500) << "a refused MTU must leave the link unchanged";
}

TEST_F(LinkControl, VethReportsItsSpeedAndFullDuplex) {
  EXPECT_EQ(link_.sysfs().speed_mbps(dut_), 10000);
  EXPECT_EQ(link_.sysfs().duplex(dut_), "full");
  EXPECT_EQ(link_.sysfs().operstate(dut_), "up");
}

TEST_F(LinkControl, CountersGrowWithTraffic) {
  const auto before = link_.counters(dut_);
  const hil::sys::unique_fd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  ASSERT_TRUE(fd);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(9);  // discard; nothing listens, which is fine for counting
  ::inet_pton(AF_INET, "198.18.0.195", &to.sin_addr);
  constexpr int sent = 10;
  for (int i = 0; i < sent; ++i) {
    ASSERT_EQ(::sendto(fd.get(), "x", 1, 0, reinterpret_cast<const sockaddr*>(&to), sizeof(to)), 1);
  }
  const auto d = hil::link::delta(before, link_.counters(dut_));
  EXPECT_GE(d.growth.tx_packets, static_cast<unsigned>(sent));  // plus ARP
  EXPECT_TRUE(d.clean()) << d.error_summary();
}

TEST_F(LinkControl, LinkStateFailsWhenThePeerEndIsDown) {
  hil::sys::run_checked(
      {"ip", "-n", layout_.peer_netns, "link", "set", layout_.peer_interface, "down"});
  const auto info = link_.info(dut_);
  const auto v = hil::measure::check_link_state(dut_, info.admin_up, info.carrier, info.operstate);
  hil::sys::run_checked(
      {"ip", "-n", layout_.peer_netns, "link", "set", layout_.peer_interface, "up"});
  EXPECT_FALSE(v.pass);
  EXPECT_THAT(v.message(), HasSubstr("no link partner"));
}

// Drops CAP_NET_ADMIN from this process's effective set (a real EPERM, not a mock).
bool drop_cap_net_admin() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  std::array<__user_cap_data_struct, 2> data{};
  if (::syscall(SYS_capget, &header, data.data()) != 0) return false;
  data[CAP_TO_INDEX(CAP_NET_ADMIN)].effective &= ~CAP_TO_MASK(CAP_NET_ADMIN);
  return ::syscall(SYS_capset, &header, data.data()) == 0;
}

TEST_F(LinkControl, WithoutCapNetAdminTheErrorSaysWhatIsNeeded) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    std::string message = "no error";
    try {
      if (!drop_cap_net_admin()) ::_exit(2);
      hil::link::link_control unprivileged;  // netlink checks the opener's capabilities
      unprivileged.set_mtu(hil::test::run_layout().dut_interface, 3000);
    } catch (const std::system_error& e) {
      message = e.code() == std::errc::operation_not_permitted ? e.what() : "other error";
    }
    (void)!::write(fds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string message(512, '\0');
  const ssize_t n = ::read(fds[0], message.data(), message.size());
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "could not drop the capability";
  message.resize(static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
  EXPECT_THAT(message, HasSubstr("needs CAP_NET_ADMIN"));
  EXPECT_EQ(link_.mtu(dut_), 1500);
}

TEST_F(LinkControl, AdminDownAndUpAreApplied) {
  link_.set_admin_up(dut_, false);
  EXPECT_FALSE(link_.info(dut_).admin_up);
  link_.set_admin_up(dut_, true);
  EXPECT_TRUE(link_.info(dut_).admin_up);
}

}  // namespace

namespace {

// A netlink socket opened through with_socket_namespace lives in the peer's namespace — it sees
// the peer's interface, not the DUT's — while the test's own thread stays where it was.
TEST(SocketNamespace, ANetlinkSocketOpenedThereSeesThePeersLinksAndTheCallerStaysHome) {
  const hil::bench::sim_layout& l = hil::test::run_layout();
  const unsigned long home = hil::sys::current_netns_inode();
  std::optional<hil::link::link_control> peer;
  hil::sys::with_socket_namespace(l.peer_netns, [&] { peer.emplace(); });
  EXPECT_TRUE(peer->exists(l.peer_interface));
  EXPECT_FALSE(peer->exists(l.dut_interface));
  EXPECT_EQ(hil::sys::current_netns_inode(), home);
  EXPECT_TRUE(hil::link::link_control().exists(l.dut_interface));
}

TEST(SocketNamespace, ANamespaceThatIsNotThereIsNamedAndTheBodyNeverRuns) {
  bool ran = false;
  try {
    hil::sys::with_socket_namespace("hilperf-no-such-ns", [&] { ran = true; });
    FAIL() << "entered a namespace that does not exist";
  } catch (const std::system_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("hilperf-no-such-ns"));
  }
  EXPECT_FALSE(ran);
}

}  // namespace
