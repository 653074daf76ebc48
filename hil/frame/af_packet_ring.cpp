#include "hil/frame/af_packet_ring.hpp"

#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <thread>

#include "hil/frame/path_error.hpp"
#include "hil/sys/error.hpp"
#include "hil/sys/unique_fd.hpp"

namespace hil::frame {
namespace {

// TX data starts tp_hdrlen − sizeof(sockaddr_ll) into a slot (packet_mmap.rst, without
// PACKET_TX_HAS_OFF): the aligned tpacket2_hdr.
constexpr std::size_t data_offset = TPACKET2_HDRLEN - sizeof(sockaddr_ll);

// The ring's mapping, unmapped on destruction.
struct mapping {
  std::byte* at = nullptr;
  std::size_t bytes = 0;
  mapping() = default;
  mapping(const mapping&) = delete;
  mapping& operator=(const mapping&) = delete;
  ~mapping() {
    if (at != nullptr) ::munmap(at, bytes);
  }
};

class af_packet_ring final : public frame_sender {
 public:
  af_packet_ring(std::string ifname, const frame_template& frame, const ring_options& o)
      : ifname_(std::move(ifname)), frame_(frame), slots_(std::bit_ceil(o.frames)) {
    fd_ = sys::unique_fd(::socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0));
    if (!fd_) throw_unavailable(errno, "AF_PACKET socket on " + ifname_);
    set(PACKET_VERSION, TPACKET_V2, "PACKET_VERSION TPACKET_V2");
    if (o.qdisc_bypass) set(PACKET_QDISC_BYPASS, 1, "PACKET_QDISC_BYPASS");
    bypass_ = o.qdisc_bypass;
    slot_bytes_ = std::bit_ceil(data_offset + frame_.size());
    const std::size_t block = std::max<std::size_t>(4096, slot_bytes_);
    tpacket_req req{};
    req.tp_block_size = static_cast<unsigned>(block);
    req.tp_frame_size = static_cast<unsigned>(slot_bytes_);
    req.tp_frame_nr = slots_;
    req.tp_block_nr = static_cast<unsigned>(slots_ * slot_bytes_ / block);
    if (::setsockopt(fd_.get(), SOL_PACKET, PACKET_TX_RING, &req, sizeof req) != 0) {
      throw_unavailable(errno, "PACKET_TX_RING on " + ifname_);
    }
    void* m =
        ::mmap(nullptr, slots_ * slot_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_.get(), 0);
    if (m == MAP_FAILED) throw_unavailable(errno, "mmap of the TX ring on " + ifname_);
    ring_.at = static_cast<std::byte*>(m);
    ring_.bytes = slots_ * slot_bytes_;
    sockaddr_ll to{};
    to.sll_family = AF_PACKET;
    to.sll_protocol = 0;  // TX only: no receive hook
    to.sll_ifindex = static_cast<int>(::if_nametoindex(ifname_.c_str()));
    if (to.sll_ifindex == 0) throw_unavailable(ENODEV, "no interface " + ifname_);
    if (::bind(fd_.get(), reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
      throw_unavailable(errno, "bind of the AF_PACKET socket to " + ifname_);
    }
    for (std::uint32_t i = 0; i < slots_; ++i) {
      std::memcpy(slot(i) + data_offset, frame_.bytes().data(), frame_.size());
    }
  }

  std::uint32_t send(std::uint32_t n) override {
    reclaim();
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    const auto sec = static_cast<std::uint32_t>(now.tv_sec);
    const auto usec = static_cast<std::uint32_t>(now.tv_nsec / 1000);
    std::uint32_t queued = 0;
    while (queued < n && submitted_ - completed_ < slots_) {
      std::byte* s = slot(static_cast<std::uint32_t>(submitted_ % slots_));
      auto* h = static_cast<tpacket2_hdr*>(static_cast<void*>(s));
      frame_.stamp(s + data_offset, seq_++, sec, usec);
      h->tp_len = static_cast<unsigned>(frame_.size());
      __atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
      ++submitted_;
      ++queued;
    }
    if (submitted_ != accepted_ + refused_) kick();
    return queued;
  }

  bool drain(std::chrono::milliseconds timeout) override {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (submitted_ != accepted_ + refused_) kick();
      reclaim();
      if (completed_ == submitted_) return true;
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

  [[nodiscard]] send_counts counts() const override { return {accepted_, completed_, refused_}; }
  [[nodiscard]] tx_path path() const override { return tx_path::af_packet_ring; }
  [[nodiscard]] std::string mode() const override { return bypass_ ? "qdisc bypassed" : "qdisc"; }
  [[nodiscard]] const std::string& interface() const override { return ifname_; }

 private:
  void set(int option, int value, const char* what) {
    if (::setsockopt(fd_.get(), SOL_PACKET, option, &value, sizeof value) != 0) {
      throw_unavailable(errno, std::string(what) + " on " + ifname_);
    }
  }

  [[nodiscard]] std::byte* slot(std::uint32_t i) const { return ring_.at + i * slot_bytes_; }

  // One send() pushes every slot marked for sending, synchronously (MSG_DONTWAIT). A frame the
  // driver dropped (its queue full, with the qdisc bypassed) ends the call with ENOBUFS: that frame
  // is lost, the ones after it stay marked for the next call.
  void kick() {
    if (::send(fd_.get(), nullptr, 0, MSG_DONTWAIT) >= 0) {
      accepted_ = submitted_ - refused_;
      return;
    }
    if (errno == ENOBUFS) {
      ++refused_;
    } else if (errno != EAGAIN && errno != EINTR) {
      sys::throw_last_errno("send on the TX ring of " + ifname_);
    }
  }

  // Slots the kernel handed back, oldest first.
  void reclaim() {
    while (completed_ < submitted_) {
      auto* h = static_cast<tpacket2_hdr*>(
          static_cast<void*>(slot(static_cast<std::uint32_t>(completed_ % slots_))));
      const unsigned status = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
      if (status != TP_STATUS_AVAILABLE && status != TP_STATUS_WRONG_FORMAT) break;
      ++completed_;
    }
  }

  std::string ifname_;
  frame_template frame_;
  std::uint32_t slots_;
  std::size_t slot_bytes_ = 0;
  sys::unique_fd fd_;
  mapping ring_;  // the TX ring, unmapped before the socket closes
  bool bypass_ = false;
  std::uint32_t seq_ = 0;        // the next frame's sequence number
  std::uint64_t submitted_ = 0;  // slots marked for sending
  std::uint64_t accepted_ = 0;   // of those, taken by a send() that returned success
  std::uint64_t completed_ = 0;  // slots handed back
  std::uint64_t refused_ = 0;    // frames a send() reported dropped (ENOBUFS)
};

}  // namespace

std::unique_ptr<frame_sender> open_af_packet_ring(const std::string& ifname,
                                                  const frame_template& frame,
                                                  const ring_options& options) {
  return std::make_unique<af_packet_ring>(ifname, frame, options);
}

}  // namespace hil::frame
