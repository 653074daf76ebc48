// payload_file: what sendfile(2) puts on a TCP connection is the block's bytes, whole or a prefix,
// write after write; a connection gone is EPIPE, and the SIGPIPE it raises is never delivered.
#include "hil/traffic/payload_file.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdint>
#include <vector>

#include "hil/sys/unique_fd.hpp"
#include "hil/traffic/flow.hpp"

namespace {

using hil::sys::unique_fd;
using hil::traffic::payload_file;

// A connected TCP pair on loopback: {sender, receiver}.
std::pair<unique_fd, unique_fd> tcp_pair() {
  unique_fd listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  EXPECT_EQ(::bind(listener.get(), reinterpret_cast<sockaddr*>(&a), len), 0);
  EXPECT_EQ(::listen(listener.get(), 1), 0);
  EXPECT_EQ(::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&a), &len), 0);
  unique_fd sender(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  EXPECT_EQ(::connect(sender.get(), reinterpret_cast<sockaddr*>(&a), len), 0);
  unique_fd receiver(::accept(listener.get(), nullptr, nullptr));
  return {std::move(sender), std::move(receiver)};
}

std::vector<std::uint8_t> read_exactly(int fd, std::size_t n) {
  std::vector<std::uint8_t> out(n);
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::recv(fd, out.data() + got, n - got, 0);
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  out.resize(got);
  return out;
}

TEST(PayloadFile, PutsTheBlocksBytesOnTheConnectionWriteAfterWrite) {
  const auto block = hil::traffic::random_block(5000, 7);
  const auto file = payload_file::of(block);
  ASSERT_TRUE(file);
  auto [tx, rx] = tcp_pair();
  ASSERT_EQ(file->send_to(tx.get(), block.size()), 5000);
  ASSERT_EQ(file->send_to(tx.get(), 1234), 1234);  // a last partial block (-n) is its prefix
  EXPECT_EQ(read_exactly(rx.get(), 5000), block);
  EXPECT_EQ(read_exactly(rx.get(), 1234),
            std::vector<std::uint8_t>(block.begin(), block.begin() + 1234));
}

TEST(PayloadFile, AConnectionGoneIsEpipeWithoutASignal) {
  const auto block = hil::traffic::random_block(4096, 1);
  const auto file = payload_file::of(block);
  ASSERT_TRUE(file);
  payload_file::block_sigpipe();
  auto [tx, rx] = tcp_pair();
  ::shutdown(tx.get(), SHUT_WR);
  EXPECT_EQ(file->send_to(tx.get(), block.size()), -1);
  EXPECT_EQ(errno, EPIPE);
  sigset_t pending;
  sigemptyset(&pending);
  ::sigpending(&pending);
  EXPECT_FALSE(sigismember(&pending, SIGPIPE)) << "the SIGPIPE must be taken off the thread";
}

}  // namespace
