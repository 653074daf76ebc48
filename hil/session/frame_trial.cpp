#include "hil/session/frame_trial.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "hil/measure/frames.hpp"

namespace hil::session {
namespace {
constexpr std::uint32_t trial_socket_buffer = 8U << 20;
}  // namespace

std::uint32_t trial_payload(const frame_trial_options& o) {
  const std::uint32_t header = o.base.spec.udp_counters_64bit ? 16 : 12;
  const auto payload = measure::udp_payload_for_frame(o.frame_bytes, o.ipv6, header);
  if (!payload) {
    throw std::invalid_argument(
        fmt::format("a {}-byte frame over {} cannot carry iperf3's {}-byte datagram header",
                    o.frame_bytes, o.ipv6 ? "IPv6" : "IPv4", header));
  }
  return *payload;
}

namespace {

// The iperf3 UDP client of o's frames at fps, without its length (-t, -n or -k).
client_options trial_client(const frame_trial_options& o, double fps) {
  client_options c = o.base;
  const std::uint32_t payload = trial_payload(o);
  c.spec.proto = measure::protocol::udp;
  c.spec.block_len = payload;
  c.spec.bitrate_bps = static_cast<std::uint64_t>(std::llround(fps * payload * 8));
  c.spec.bitrate_given = true;
  c.spec.parallel = 1;
  c.spec.bytes = 0;
  c.spec.blocks = 0;
  // Socket buffers (iperf3's -w, forced past net.core.wmem_max where we may) so large that the
  // sender's own queue never holds it back: frames beyond what the port carries are dropped by
  // its queue and counted as lost, not delayed (with Linux's default 208 KiB, a qdisc's 1,000
  // frames waiting for the NIC fill the send buffer and the sender blocks at the port's rate,
  // which would read as a sender that cannot keep its schedule).
  if (c.spec.window == 0) c.spec.window = trial_socket_buffer;
  c.spec.force_window = true;
  return c;
}

// Runs c and reads its one stream's counts.
measure::trial_outcome outcome_of(const client_options& c, const frame_trial_options& o,
                                  double fps) {
  const measure::test_result r = run_client(c);
  if (!r.error.empty() || r.streams.empty()) {
    throw std::system_error(std::make_error_code(std::errc::protocol_error),
                            fmt::format("RFC 2544 trial at {:.0f} frames/s of {} bytes: {}", fps,
                                        o.frame_bytes, r.error.empty() ? "no stream" : r.error));
  }
  const auto& s = r.streams.front();
  measure::trial_outcome t;
  t.offered_fps = fps;
  t.sent = static_cast<std::uint64_t>(std::max<std::int64_t>(s.sender.packets, 0));
  t.sent_fps = s.sender.seconds > 0 ? static_cast<double>(t.sent) / s.sender.seconds : 0;
  t.received =
      static_cast<std::uint64_t>(std::max<std::int64_t>(s.receiver.packets - s.receiver.errors, 0));
  if (s.local_sends && s.sender.most_overdue >= 0) {
    t.sender_overdue = static_cast<std::uint64_t>(s.sender.most_overdue);
  }
  return t;
}

}  // namespace

measure::trial_outcome run_frame_trial(const frame_trial_options& o, double fps,
                                       std::chrono::milliseconds duration) {
  client_options c = trial_client(o, fps);
  c.spec.duration = std::chrono::ceil<std::chrono::seconds>(duration);
  return outcome_of(c, o, fps);
}

measure::trial_outcome run_frame_burst(const frame_trial_options& o, double fps,
                                       std::uint64_t frames) {
  if (frames == 0) throw std::invalid_argument("a back-to-back burst of 0 frames");
  client_options c = trial_client(o, fps);
  c.spec.blocks = frames;
  auto t = outcome_of(c, o, fps);
  // A stock iperf3 server sending the burst (-R) does not stop at -k: it sends on until TEST_END
  // and counts all of it. The burst is the first `frames` datagrams; our receiver counted only
  // those (flow_config::block_limit).
  if (c.spec.reverse) t.sent = std::min(t.sent, frames);
  return t;
}

}  // namespace hil::session
