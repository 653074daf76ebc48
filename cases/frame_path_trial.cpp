#include "cases/frame_path_trial.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hil/frame/frame_builder.hpp"
#include "hil/frame/path_chain.hpp"
#include "hil/session/frame_count_client.hpp"

namespace hil::cases {
namespace {

using namespace std::chrono_literals;

// The frames' UDP source port: any (the peer counts by destination port); the discard service's
// neighbour, so a capture names it.
constexpr std::uint16_t source_port = 9;
// What a trial needs besides its frames, for the peer's guard: opening the path (an AF_XDP UMEM,
// a neighbour resolved), the drain (at most 1 s: batch_pacer.hpp) and the control exchange.
constexpr auto setup_allowance = 5s;

}  // namespace

std::string path_trial_pacing(std::uint32_t batch) {
  return fmt::format(
      "frame path: batches of {} frames released when their first frame is due on the monotonic "
      "clock, each batch back to back at the port's rate; a late sender catches up at no more "
      "than twice the offered rate",
      batch);
}

path_trial run_path_trial(link::link_control& link, const path_trial_options& o, double fps,
                          std::chrono::milliseconds duration, std::uint64_t frames) {
  session::frame_count_options c;
  c.host = o.trial.base.host;
  c.port = o.trial.base.port;
  c.auth = o.trial.base.auth;
  c.bind_device = o.trial.base.spec.bind_device;
  c.connect_timeout = o.trial.base.connect_timeout;
  c.refused_retry = o.trial.base.refused_retry;
  c.busy_retry = o.trial.base.busy_retry;
  c.control_timeout = o.trial.base.control_timeout + duration;
  c.request.duration = duration + setup_allowance;
  c.request.xdp = o.count_in_xdp;

  path_trial out;
  const auto counted = session::run_frame_count(c, [&](const session::frame_count_target& t) {
    const auto spec = frame::flow_frame(link, o.ifname, o.src_ip, t.address, source_port,
                                        t.accept.udp_port, o.trial.frame_bytes);
    const frame::frame_template frame(spec);
    frame::chain_request request;
    request.ifname = o.ifname;
    request.order = o.order;
    const auto opened = frame::open_frame_path(request, frame);
    out.summary = opened.summary();
    out.path =
        fmt::format("{} ({})", frame::path_name(opened.sender->path()), opened.sender->mode());
    frame::pace_plan plan;
    plan.frames_per_second = fps;
    plan.batch = o.batch;
    plan.duration = duration;
    plan.frame_limit = frames;
    out.pace = frame::run_paced(*opened.sender, link, plan);
  });
  out.counted = counted.counted;
  out.count_why = counted.accept.why;

  auto& r = out.outcome;
  r.offered_fps = fps;
  // Sent: what the kernel took, the frames still in the ring at the window's end included once
  // it consumed them while draining (AF_XDP's consumer index lags its producer by up to a ring).
  r.sent = std::max(out.pace.accepted, out.pace.completed);
  r.sent_fps = out.pace.seconds > 0 ? static_cast<double>(r.sent) / out.pace.seconds : 0;
  r.received = out.counted.frames;
  if (fps > 0) r.sender_overdue = out.pace.most_overdue;
  return out;
}

}  // namespace hil::cases
