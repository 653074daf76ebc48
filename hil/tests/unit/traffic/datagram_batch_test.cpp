// datagram_batch's layout of a sender's buffer into sendmmsg messages (no socket: the messages
// are only inspected), with GSO (several datagrams per message) and without (one each).
#include "hil/traffic/datagram_batch.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using hil::traffic::datagram_batch;

constexpr std::size_t len = 1472;

TEST(DatagramBatch, GsoMessagesTakeWholeGroupsOfDatagramsInOrderAndTheLastTakesTheRest) {
  std::vector<std::uint8_t> buf(64 * len);
  datagram_batch batch(buf.data(), len, 44, 2);
  EXPECT_EQ(batch.capacity(), 88U);
  ASSERT_EQ(batch.lay_out(64), 2U);
  const mmsghdr* m = batch.messages();
  EXPECT_EQ(m[0].msg_hdr.msg_iov->iov_base, buf.data());
  EXPECT_EQ(m[0].msg_hdr.msg_iov->iov_len, 44 * len);
  EXPECT_EQ(m[1].msg_hdr.msg_iov->iov_base, buf.data() + 44 * len);
  EXPECT_EQ(m[1].msg_hdr.msg_iov->iov_len, 20 * len);
  EXPECT_EQ(batch.datagrams_in(0), 0U);
  EXPECT_EQ(batch.datagrams_in(1), 44U) << "a partial send counts the whole messages it took";
  EXPECT_EQ(batch.datagrams_in(2), 64U);
}

TEST(DatagramBatch, WithoutGsoEachDatagramIsAMessageAndAFewerLayOutUsesFewerMessages) {
  std::vector<std::uint8_t> buf(8 * len);
  datagram_batch batch(buf.data(), len, 1, 8);
  ASSERT_EQ(batch.lay_out(8), 8U);
  ASSERT_EQ(batch.lay_out(3), 3U);
  const mmsghdr* m = batch.messages();
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(m[i].msg_hdr.msg_iov->iov_base, buf.data() + i * len);
    EXPECT_EQ(m[i].msg_hdr.msg_iov->iov_len, len);
  }
  EXPECT_EQ(batch.datagrams_in(3), 3U);
}

}  // namespace
