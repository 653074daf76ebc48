#include "hil/session/iperf2_turnaround.hpp"

#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>

#include <fmt/format.h>

#include "hil/measure/units.hpp"
#include "hil/session/iperf2_datagrams.hpp"
#include "hil/traffic/stream_edges.hpp"

namespace hil::session {
namespace {

using namespace std::chrono_literals;

constexpr std::uint32_t tcp_block = 128 * 1024;  // iperf 2's default TCP buffer
constexpr int fin_copies = 3;   // a stock server sends one; a lost FIN costs the client its count
constexpr auto udp_grace = 2s;  // a UDP client's FIN may come this late (iperf 2's own wait)

measure::test_spec spec_for(const iperf2_turnaround_setup& s) {
  measure::test_spec spec;
  spec.proto = s.udp ? measure::protocol::udp : measure::protocol::tcp;
  if (s.header.timed()) {
    spec.duration = std::chrono::duration_cast<std::chrono::seconds>(s.header.duration());
  } else {
    spec.bytes = static_cast<std::uint64_t>(std::max(s.header.amount, 0));
  }
  spec.reverse = s.header.way() == iperf2::direction::reverse;
  spec.bidirectional = s.header.way() == iperf2::direction::full_duplex;
  if (s.udp) {
    const auto asked =
        s.header.buffer_len > 0 ? static_cast<std::size_t>(s.header.buffer_len) : s.datagram_len;
    spec.block_len = static_cast<std::uint32_t>(
        std::clamp<std::size_t>(asked, iperf2::prefix_size, measure::max_udp_payload));
  } else {
    spec.block_len = tcp_block;
  }
  spec.bitrate_bps = s.header.rate_bps;
  spec.bitrate_given = s.header.rate_bps != 0;
  return spec;
}

}  // namespace

iperf2_turnaround::iperf2_turnaround(iperf2_turnaround_setup setup)
    : s_(std::move(setup)), watch_(sys::duplicate(s_.socket.get())), run_(spec_for(s_)) {
  const auto& spec = run_.spec();
  const auto format = std::make_shared<const iperf2_datagrams>(std::nullopt);
  traffic::flow_config send;
  send.id = 1;
  send.role = traffic::flow_role::send;
  send.proto = spec.proto;
  send.block_len = spec.block_len;
  send.bitrate_bps = spec.bitrate_bps;
  send.byte_limit = spec.bytes;
  send.payload_seed = iperf2_payload_seed(0x1e7f2);
  if (s_.udp) send.datagrams = format;
  if (s_.header.way() == iperf2::direction::full_duplex) {
    auto receive = send;
    receive.id = 2;
    receive.role = traffic::flow_role::receive;
    receive.bitrate_bps = 0;
    receive.byte_limit = 0;
    run_.add_flow(
        std::make_unique<traffic::flow>(sys::duplicate(s_.socket.get()), s_.family, send));
    run_.add_flow(std::make_unique<traffic::flow>(std::move(s_.socket), s_.family, receive));
  } else {
    run_.add_flow(std::make_unique<traffic::flow>(std::move(s_.socket), s_.family, send));
  }
  run_.start();
  const auto limit = s_.header.timed()
                         ? std::chrono::duration_cast<clock::duration>(s_.header.duration())
                         : clock::duration::zero();
  deadline_ = run_.t0() + limit + s_.slack;
  last_progress_ = run_.t0();
}

iperf2_turnaround::~iperf2_turnaround() = default;

bool iperf2_turnaround::step() {
  if (phase_ == phase::over) return true;
  const auto now = clock::now();
  std::uint64_t moved = 0;
  for (const auto& f : run_.flows()) moved += f->sample().bytes;
  if (moved != last_moved_) {
    last_moved_ = moved;
    last_progress_ = now;
  }
  const bool timed = s_.header.timed();
  if (phase_ == phase::sending &&
      (timed ? now >= run_.t0() + s_.header.duration() : run_.senders_done())) {
    run_.stop_senders();
    phase_ = phase::stopping;
  }
  if (phase_ == phase::stopping && run_.senders_done()) {
    run_.join_senders();
    end_sending();
    phase_ = phase::finishing;
  }
  const bool stalled = !timed && now >= last_progress_ + s_.slack;
  if (phase_ == phase::finishing && client_done()) {
    phase_ = phase::over;
  } else if (now >= deadline_ || stalled || !run_.flow_error().empty()) {
    cut_ = run_.flow_error().empty();
    phase_ = phase::over;
  }
  if (phase_ != phase::over) return false;
  run_.finish();
  // What the client did with our stream comes back only as its close (TCP), or not at all (UDP);
  // its stream to us (full duplex) ended as it said: what we read (TCP), its FIN's count (UDP).
  traffic::run_totals remote;
  const auto mine = run_.local_totals();
  for (std::size_t i = 0; i < mine.streams.size(); ++i) {
    const auto& m = mine.streams[i];
    traffic::run_totals::stream r{m.id, {}};
    const auto& f = *run_.flows()[i];
    if (!s_.udp && !cut_) {
      r.totals.bytes = m.totals.bytes;
      r.totals.seconds = m.totals.seconds;
    } else if (s_.udp && f.config().role == traffic::flow_role::receive) {
      r.totals.packets =
          f.peer_sent() ? static_cast<std::int64_t>(*f.peer_sent()) : m.totals.packets;
      r.totals.bytes = static_cast<std::uint64_t>(r.totals.packets) * run_.spec().block_len;
      r.totals.seconds = m.totals.seconds;
    }
    remote.streams.push_back(r);
  }
  measure::test_result r = run_.result(remote);
  r.is_client = false;
  for (std::size_t i = 0; i < r.streams.size(); ++i) {
    auto& st = r.streams[i];
    if (st.local_sends) continue;
    if (!s_.udp) {
      st.receiver.bytes += s_.header_bytes;
      st.sender.bytes += s_.header_bytes;
      continue;
    }
    // The client's first datagram (sequence 1) was read before this socket existed: the
    // receiver saw sequence 2 first and counted 1 as lost.
    if (s_.first_datagram_received && st.receiver.errors > 0) {
      --st.receiver.errors;
      st.receiver.bytes += s_.datagram_len;
    }
    // Its FIN says how many it sent: the datagrams lost after the last that arrived count too.
    if (st.sender.packets > st.receiver.packets) {
      st.receiver.errors += st.sender.packets - st.receiver.packets;
      st.receiver.packets = st.sender.packets;
    }
  }
  if (cut_) {
    r.error = fmt::format("cut off after {:.1f} s: the client did not end its test",
                          std::chrono::duration<double>(now - run_.t0()).count());
  } else if (!run_.flow_error().empty()) {
    r.error = run_.flow_error();
  }
  run_.close();
  result_ = std::move(r);
  return true;
}

void iperf2_turnaround::end_sending() {
  send_ended_ = clock::now();
  if (!s_.udp) {
    ::shutdown(watch_.get(), SHUT_WR);
    return;
  }
  const auto sent = static_cast<std::int64_t>(run_.flows().front()->sample().packets);
  const iperf2_datagrams format(std::nullopt);
  const auto fin = format.fin(sent, 0, run_.spec().block_len);
  traffic::send_copies(watch_.get(), fin, fin_copies);
}

bool iperf2_turnaround::client_done() {
  const auto way = s_.header.way();
  if (s_.udp) {
    if (way == iperf2::direction::reverse) return true;  // no report: our FIN ended it
    const bool fin = run_.flows().back()->finished();
    return fin || clock::now() >= send_ended_ + udp_grace;
  }
  if (way == iperf2::direction::full_duplex) {
    int queued = 0;
    return run_.flows().back()->finished() && ::ioctl(watch_.get(), SIOCOUTQ, &queued) == 0 &&
           queued == 0;
  }
  // -R: the client reads to our end of stream, then closes.
  return traffic::peer_closed(watch_.get());
}

measure::test_result iperf2_turnaround::result() const { return result_.value(); }

std::string iperf2_turnaround::summary() const {
  const auto& r = result_.value();
  std::string line = r.spec.bidirectional ? "--full-duplex" : "-R";
  for (const auto& st : r.streams) {
    const auto& t = st.local_sends ? st.sender : st.receiver;
    const double mbps = measure::bits_per_second(t.bytes, t.seconds) / 1e6;
    line += fmt::format(", {} {} bytes in {:.2f} s ({:.1f} Mbit/s)",
                        st.local_sends ? "sent" : "received", t.bytes, t.seconds, mbps);
    if (s_.udp && st.local_sends) line += fmt::format(" in {} datagrams", t.packets);
    if (s_.udp && !st.local_sends) {
      line += fmt::format(", {}/{} lost, jitter {:.3f} ms", st.receiver.errors, st.sender.packets,
                          st.receiver.jitter_s * 1e3);
    }
  }
  if (!r.error.empty()) line += ", " + r.error;
  return line;
}

}  // namespace hil::session
