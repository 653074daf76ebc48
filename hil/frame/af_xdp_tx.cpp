#include "hil/frame/af_xdp_tx.hpp"

#include <linux/if_xdp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <xdp/xsk.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <thread>

#include "hil/frame/path_error.hpp"
#include "hil/sys/error.hpp"

namespace hil::frame {
namespace {

// The UMEM's memory, unmapped on destruction (after the socket and UMEM objects let go of it).
struct umem_area {
  std::byte* at = nullptr;
  std::size_t bytes = 0;
  umem_area() = default;
  umem_area(const umem_area&) = delete;
  umem_area& operator=(const umem_area&) = delete;
  ~umem_area() {
    if (at != nullptr) ::munmap(at, bytes);
  }
};

class af_xdp_tx final : public frame_sender {
 public:
  af_xdp_tx(std::string ifname, const frame_template& frame, const xsk_options& o)
      : ifname_(std::move(ifname)), frame_(frame), frames_(std::bit_ceil(o.frames)), options_(o) {
    chunk_ = frame_.size() <= 2048 ? 2048 : 4096;
    if (frame_.size() > chunk_) {
      throw path_unavailable(refusal::driver_refused, EMSGSIZE,
                             "AF_XDP on " + ifname_ + ": a " +
                                 std::to_string(frame_.spec().frame_bytes) +
                                 "-byte frame does not fit a 4096-byte UMEM chunk");
    }
    area_.bytes = std::size_t{frames_} * chunk_;
    void* m =
        ::mmap(nullptr, area_.bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw_unavailable(errno, "mmap of the AF_XDP UMEM for " + ifname_);
    area_.at = static_cast<std::byte*>(m);
    for (std::uint32_t i = 0; i < frames_; ++i) {
      std::memcpy(area_.at + std::size_t{i} * chunk_, frame_.bytes().data(), frame_.size());
    }
    const std::uint16_t wakeup = o.need_wakeup ? XDP_USE_NEED_WAKEUP : 0;
    int zc_error = 0;
    if (o.zero_copy) {
      zc_error = open(XDP_ZEROCOPY | wakeup);
      if (zc_error == 0) return;
    }
    if (const int e = open(XDP_COPY | wakeup); e != 0) {
      throw_unavailable(e, "AF_XDP socket on " + ifname_ + " queue " + std::to_string(o.queue) +
                               " (copy mode; zero-copy: " +
                               (zc_error != 0 ? std::strerror(zc_error) : "not tried") + ")");
    }
    if (zc_error != 0) zc_refusal_ = std::strerror(zc_error);
  }

  ~af_xdp_tx() override { close(); }

  std::uint32_t send(std::uint32_t n) override {
    reclaim();
    const std::uint64_t free = frames_ - (submitted_ - completed_);
    std::uint32_t idx = 0;
    const auto want = static_cast<std::uint32_t>(std::min<std::uint64_t>(n, free));
    const std::uint32_t got = want == 0 ? 0 : xsk_ring_prod__reserve(&tx_, want, &idx);
    if (got > 0) {
      timespec now{};
      ::clock_gettime(CLOCK_REALTIME, &now);
      const auto sec = static_cast<std::uint32_t>(now.tv_sec);
      const auto usec = static_cast<std::uint32_t>(now.tv_nsec / 1000);
      for (std::uint32_t i = 0; i < got; ++i) {
        const std::uint64_t addr = ((submitted_ + i) % frames_) * chunk_;
        xdp_desc* d = xsk_ring_prod__tx_desc(&tx_, idx + i);
        d->addr = addr;
        d->len = static_cast<std::uint32_t>(frame_.size());
        d->options = 0;
        frame_.stamp(area_.at + addr, seq_++, sec, usec);
      }
      xsk_ring_prod__submit(&tx_, got);
      submitted_ += got;
    }
    kick();
    return got;
  }

  bool drain(std::chrono::milliseconds timeout) override {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      kick();
      reclaim();
      if (completed_ == submitted_) return true;
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

  [[nodiscard]] send_counts counts() const override {
    xdp_statistics stats{};
    socklen_t len = sizeof stats;
    std::uint64_t invalid = 0;
    if (::getsockopt(xsk_socket__fd(xsk_), SOL_XDP, XDP_STATISTICS, &stats, &len) == 0) {
      invalid = stats.tx_invalid_descs;
    }
    return {consumed_ + consumed_since(), completed_, invalid};
  }

  [[nodiscard]] tx_path path() const override { return tx_path::af_xdp; }
  [[nodiscard]] std::string mode() const override {
    if (zero_copy_) return "zero-copy";
    return zc_refusal_.empty() ? "copy" : "copy (zero-copy refused: " + zc_refusal_ + ")";
  }
  [[nodiscard]] const std::string& interface() const override { return ifname_; }

 private:
  // Creates the UMEM and the socket with these bind flags; 0, or the positive errno (both freed).
  int open(std::uint16_t bind_flags) {
    xsk_umem_config ucfg{};
    ucfg.fill_size = XSK_RING_PROD__DEFAULT_NUM_DESCS;
    ucfg.comp_size = frames_;
    ucfg.frame_size = static_cast<std::uint32_t>(chunk_);
    ucfg.frame_headroom = 0;
    ucfg.flags = 0;
    if (const int r = xsk_umem__create(&umem_, area_.at, area_.bytes, &fill_, &comp_, &ucfg);
        r != 0) {
      umem_ = nullptr;
      return -r;
    }
    xsk_socket_config scfg{};
    scfg.rx_size = 0;
    scfg.tx_size = frames_;
    scfg.libxdp_flags = options_.load_program ? 0 : XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD;
    scfg.xdp_flags = 0;
    scfg.bind_flags = bind_flags;
    if (const int r =
            xsk_socket__create(&xsk_, ifname_.c_str(), options_.queue, umem_, nullptr, &tx_, &scfg);
        r != 0) {
      xsk_ = nullptr;
      close();
      return -r;
    }
    ::xdp_options opts{};
    socklen_t len = sizeof opts;
    zero_copy_ = ::getsockopt(xsk_socket__fd(xsk_), SOL_XDP, XDP_OPTIONS, &opts, &len) == 0 &&
                 (opts.flags & XDP_OPTIONS_ZEROCOPY) != 0;
    need_wakeup_ = (bind_flags & XDP_USE_NEED_WAKEUP) != 0;
    consumer_seen_ = __atomic_load_n(tx_.consumer, __ATOMIC_ACQUIRE);
    return 0;
  }

  void close() noexcept {
    if (xsk_ != nullptr) xsk_socket__delete(xsk_);
    xsk_ = nullptr;
    if (umem_ != nullptr) (void)xsk_umem__delete(umem_);
    umem_ = nullptr;
  }

  // Wakes the kernel to transmit what the ring holds, when it asks for that.
  void kick() {
    if (need_wakeup_ && !xsk_ring_prod__needs_wakeup(&tx_)) return;
    if (::sendto(xsk_socket__fd(xsk_), nullptr, 0, MSG_DONTWAIT, nullptr, 0) >= 0) return;
    // EAGAIN/EBUSY: the driver is busy, ENOBUFS: no skb; try again at the next batch.
    if (errno != EAGAIN && errno != EBUSY && errno != ENOBUFS && errno != EINTR) {
      sys::throw_last_errno("AF_XDP wake-up on " + ifname_);
    }
  }

  // Descriptors the kernel took from the TX ring since the last reclaim (its consumer index).
  [[nodiscard]] std::uint32_t consumed_since() const {
    return __atomic_load_n(tx_.consumer, __ATOMIC_ACQUIRE) - consumer_seen_;
  }

  void reclaim() {
    const std::uint32_t took = consumed_since();
    consumed_ += took;
    consumer_seen_ += took;
    std::uint32_t idx = 0;
    const std::uint32_t done = xsk_ring_cons__peek(&comp_, frames_, &idx);
    if (done == 0) return;
    xsk_ring_cons__release(&comp_, done);
    completed_ += done;
  }

  std::string ifname_;
  frame_template frame_;
  std::uint32_t frames_;
  xsk_options options_;
  std::size_t chunk_ = 2048;
  umem_area area_;  // declared before the socket's handles: unmapped after they are freed
  xsk_umem* umem_ = nullptr;
  xsk_socket* xsk_ = nullptr;
  xsk_ring_prod fill_{};  // required by xsk_umem__create; a TX-only socket never fills it
  xsk_ring_cons comp_{};
  xsk_ring_prod tx_{};
  bool zero_copy_ = false;
  bool need_wakeup_ = false;
  std::string zc_refusal_;  // why XDP_ZEROCOPY was refused, when it was
  std::uint32_t seq_ = 0;
  std::uint64_t submitted_ = 0;      // descriptors written to the TX ring
  std::uint64_t completed_ = 0;      // entries the completion ring gave back
  std::uint32_t consumer_seen_ = 0;  // the TX ring's consumer index at the last reclaim
  std::uint64_t consumed_ = 0;       // descriptors the kernel took, up to then
};

}  // namespace

bool af_xdp_built() { return true; }

std::unique_ptr<frame_sender> open_af_xdp(const std::string& ifname, const frame_template& frame,
                                          const xsk_options& options) {
  return std::make_unique<af_xdp_tx>(ifname, frame, options);
}

}  // namespace hil::frame
