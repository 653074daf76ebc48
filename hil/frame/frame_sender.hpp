// The frame paths' common face: a sender that puts batches of one flow's prebuilt frames into the
// kernel, below the socket layer where it can, and the path it took as a value a record carries.
//
//   path             what it is                                      mode words
//   af_xdp           an AF_XDP socket (libxdp's xsk API), TX ring     "zero-copy" | "copy"
//   af_packet_ring   AF_PACKET, TPACKET_V2 TX ring, one send/batch   "qdisc bypassed" | "qdisc"
//   udp_socket       a connected UDP socket, sendmmsg per batch       "sendmmsg"
//
// What a sender counts is what the kernel took, never what was asked: `accepted` grows by the
// frames the ring or the syscall consumed, `completed` by those whose transmission the kernel
// reported done (AF_XDP's completion ring, AF_PACKET's slots coming back); the interface's own
// tx counters are the second witness (the pacer reads them).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace hil::frame {

enum class tx_path { af_xdp, af_packet_ring, udp_socket };

// "af_xdp", "af_packet_ring", "udp_socket", as records spell them.
[[nodiscard]] const char* path_name(tx_path p);

// The kernel's view of what a sender handed over.
struct send_counts {
  std::uint64_t accepted = 0;   // frames the ring or syscall consumed
  std::uint64_t completed = 0;  // of those, reported transmitted (or dropped by the driver)
  std::uint64_t refused = 0;    // frames the kernel gave back unsent (ENOBUFS, a bad descriptor)
};

class frame_sender {
 public:
  virtual ~frame_sender() = default;
  frame_sender() = default;
  frame_sender(const frame_sender&) = delete;
  frame_sender& operator=(const frame_sender&) = delete;

  // Hands up to n frames to the kernel, stamped with the next sequence numbers and the current
  // time, and kicks it; returns how many it took (fewer when the ring is full: call again).
  // Never blocks. Throws std::system_error on an error that is not a full ring.
  virtual std::uint32_t send(std::uint32_t n) = 0;

  // Waits up to timeout for every accepted frame to complete; true when all did.
  virtual bool drain(std::chrono::milliseconds timeout) = 0;

  [[nodiscard]] virtual send_counts counts() const = 0;
  [[nodiscard]] virtual tx_path path() const = 0;
  // How the path runs: "zero-copy", "copy", "qdisc bypassed", "qdisc", "sendmmsg".
  [[nodiscard]] virtual std::string mode() const = 0;
  // The interface the frames leave by.
  [[nodiscard]] virtual const std::string& interface() const = 0;
};

}  // namespace hil::frame
