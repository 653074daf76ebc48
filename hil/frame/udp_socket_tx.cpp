#include "hil/frame/udp_socket_tx.hpp"

#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <vector>

#include "hil/frame/path_error.hpp"
#include "hil/sys/error.hpp"
#include "hil/sys/unique_fd.hpp"

namespace hil::frame {
namespace {

socklen_t to_sockaddr(const ip_address& ip, std::uint16_t port, sockaddr_storage& out) {
  out = {};
  if (ip.version == 6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&out);
    a->sin6_family = AF_INET6;
    a->sin6_port = htons(port);
    std::memcpy(&a->sin6_addr, ip.bytes.data(), 16);
    return sizeof(sockaddr_in6);
  }
  auto* a = reinterpret_cast<sockaddr_in*>(&out);
  a->sin_family = AF_INET;
  a->sin_port = htons(port);
  std::memcpy(&a->sin_addr, ip.bytes.data(), 4);
  return sizeof(sockaddr_in);
}

class udp_socket_tx final : public frame_sender {
 public:
  udp_socket_tx(std::string ifname, const frame_template& frame, std::uint32_t max_batch)
      : ifname_(std::move(ifname)), frame_(frame) {
    const frame_spec& s = frame_.spec();
    fd_ = sys::unique_fd(
        ::socket(s.src_ip.version == 6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!fd_) throw_unavailable(errno, "UDP socket for " + ifname_);
    if (::setsockopt(fd_.get(), SOL_SOCKET, SO_BINDTODEVICE, ifname_.c_str(),
                     static_cast<socklen_t>(ifname_.size())) != 0) {
      throw_unavailable(errno, "SO_BINDTODEVICE " + ifname_);
    }
    const int big = 4 << 20;
    (void)::setsockopt(fd_.get(), SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
    sockaddr_storage a{};
    socklen_t len = to_sockaddr(s.src_ip, s.src_port, a);
    if (::bind(fd_.get(), reinterpret_cast<sockaddr*>(&a), len) != 0) {
      throw_unavailable(errno, "bind of the UDP socket on " + ifname_);
    }
    len = to_sockaddr(s.dst_ip, s.dst_port, a);
    if (::connect(fd_.get(), reinterpret_cast<sockaddr*>(&a), len) != 0) {
      throw_unavailable(errno, "connect of the UDP socket on " + ifname_);
    }
    const std::size_t payload = frame_.payload_size();
    buffers_.resize(max_batch * payload);
    for (std::uint32_t i = 0; i < max_batch; ++i) {
      std::memcpy(buffers_.data() + i * payload, frame_.bytes().data() + frame_.payload_offset(),
                  payload);
    }
    iov_.resize(max_batch);
    msgs_.resize(max_batch);
    for (std::uint32_t i = 0; i < max_batch; ++i) {
      iov_[i] = {buffers_.data() + i * payload, payload};
      msgs_[i] = {};
      msgs_[i].msg_hdr.msg_iov = &iov_[i];
      msgs_[i].msg_hdr.msg_iovlen = 1;
    }
  }

  std::uint32_t send(std::uint32_t n) override {
    n = std::min<std::uint32_t>(n, static_cast<std::uint32_t>(msgs_.size()));
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    const std::size_t payload = frame_.payload_size();
    for (std::uint32_t i = 0; i < n; ++i) {
      frame_.stamp_payload(buffers_.data() + i * payload, seq_ + i,
                           static_cast<std::uint32_t>(now.tv_sec),
                           static_cast<std::uint32_t>(now.tv_nsec / 1000));
    }
    const int sent = ::sendmmsg(fd_.get(), msgs_.data(), n, MSG_DONTWAIT);
    if (sent < 0) {
      if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR || errno == ECONNREFUSED) return 0;
      sys::throw_last_errno("sendmmsg on " + ifname_);
    }
    seq_ += static_cast<std::uint32_t>(sent);
    accepted_ += static_cast<std::uint64_t>(sent);
    return static_cast<std::uint32_t>(sent);
  }

  // A socket's datagrams are the kernel's once sendmmsg returned: nothing to wait for.
  bool drain(std::chrono::milliseconds /*timeout*/) override { return true; }

  [[nodiscard]] send_counts counts() const override { return {accepted_, accepted_, 0}; }
  [[nodiscard]] tx_path path() const override { return tx_path::udp_socket; }
  [[nodiscard]] std::string mode() const override { return "sendmmsg"; }
  [[nodiscard]] const std::string& interface() const override { return ifname_; }

 private:
  std::string ifname_;
  frame_template frame_;
  sys::unique_fd fd_;
  std::vector<std::byte> buffers_;  // one payload per message of a batch
  std::vector<iovec> iov_;
  std::vector<mmsghdr> msgs_;
  std::uint32_t seq_ = 0;
  std::uint64_t accepted_ = 0;
};

}  // namespace

std::unique_ptr<frame_sender> open_udp_socket(const std::string& ifname,
                                              const frame_template& frame,
                                              std::uint32_t max_batch) {
  return std::make_unique<udp_socket_tx>(ifname, frame, max_batch);
}

}  // namespace hil::frame
