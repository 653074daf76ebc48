// The i_errno values our server sends are declared once (hil/iperf3/wire.hpp), and each is one
// iperf3 knows: a stock client prints its own text for it, not "iperf3 error <n>".
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "hil/iperf3/wire.hpp"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(Iperf3ErrorNumbers, EachOneOurServerSendsHasIperf3sText) {
  for (const std::int32_t e :
       {hil::iperf3::ie_num_streams, hil::iperf3::ie_total_rate, hil::iperf3::ie_server_auth_users,
        hil::iperf3::ie_max_duration_exceeded, hil::iperf3::ie_recv_params,
        hil::iperf3::ie_auth_test, hil::iperf3::ie_server_duration_expired}) {
    EXPECT_THAT(hil::iperf3::describe_server_error({e, 0}), Not(HasSubstr("iperf3 error"))) << e;
  }
  EXPECT_EQ(hil::iperf3::describe_server_error({hil::iperf3::ie_total_rate, 0}),
            "total required bandwidth is larger than server limit");
  EXPECT_EQ(hil::iperf3::describe_server_error({hil::iperf3::ie_server_duration_expired, 0}),
            "server test duration expired");
}

}  // namespace
