#include "hil/traffic/test_run.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace hil::traffic {
namespace {

bool is_udp(const flow& f) { return f.config().proto == measure::protocol::udp; }
bool sends(const flow& f) { return f.config().role == flow_role::send; }

// Keeps a running maximum where -1 means "none yet".
void keep_max(std::int64_t& slot, std::int64_t v) {
  if (v >= 0 && v > slot) slot = v;
}

}  // namespace

test_run::test_run(measure::test_spec spec) : spec_(std::move(spec)) {}

void test_run::add_flow(std::unique_ptr<flow> f) {
  flows_.push_back(std::move(f));
  states_.emplace_back();
}

void test_run::start() {
  cpu_ = std::make_unique<measure::cpu_meter>();
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    states_[i].last = flows_[i]->sample();  // TCP_INFO baseline: retransmits count from here
    states_[i].base = states_[i].last;
  }
  rebased_ = spec_.omit.count() == 0;
  t0_ = clock::now();
  last_boundary_ = t0_;
  for (auto& f : flows_) f->start(t0_);
}

double test_run::seconds_since_t0(clock::time_point t) const {
  return std::chrono::duration<double>(t - t0_).count();
}

measure::interval_sample test_run::sample_interval(clock::time_point now) {
  measure::interval_sample out;
  const bool omitted = now <= t0_ + spec_.omit && spec_.omit.count() > 0;
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    const flow& f = *flows_[i];
    flow_state& st = states_[i];
    const flow_sample cur = f.sample();
    measure::stream_interval s;
    s.id = f.config().id;
    s.sender = sends(f);
    s.start_s = seconds_since_t0(last_boundary_);
    s.end_s = seconds_since_t0(now);
    s.bytes = cur.bytes - st.last.bytes;
    s.packets = cur.packets - st.last.packets;
    s.omitted = omitted;
    if (is_udp(f) && !sends(f)) {
      const auto d = measure::interval_delta(st.last.udp, cur.udp);
      s.lost_packets = d.lost;
      s.packets = d.highest_seq;  // iperf3: the interval's advance of the highest sequence
      s.jitter_ms = cur.udp.jitter_s * 1000.0;
    }
    if (!is_udp(f) && sends(f) && cur.tcp) {
      const std::int64_t before = st.last.tcp ? st.last.tcp->total_retrans : 0;
      s.retransmits = cur.tcp->total_retrans - before;
      s.snd_cwnd_bytes = cur.tcp->snd_cwnd_bytes;
      s.snd_wnd_bytes = cur.tcp->snd_wnd_bytes;
      s.rtt_us = cur.tcp->rtt_us;
      s.rttvar_us = cur.tcp->rttvar_us;
      s.pmtu = cur.tcp->pmtu;
      if (!omitted) {
        keep_max(st.max_cwnd, s.snd_cwnd_bytes);
        keep_max(st.max_wnd, s.snd_wnd_bytes);
        keep_max(st.max_rtt, s.rtt_us);
        if (s.rtt_us >= 0) {
          st.min_rtt = st.min_rtt < 0 ? s.rtt_us : std::min(st.min_rtt, s.rtt_us);
          st.rtt_sum += s.rtt_us;
          ++st.rtt_count;
        }
      }
    }
    st.last = cur;
    out.streams.push_back(s);
  }
  if (!rebased_ && now >= t0_ + spec_.omit) {
    for (auto& st : states_) st.base = st.last;  // iperf3 resets its counters when omit ends
    for (auto& f : flows_) f->restart_jitter();
    rebased_ = true;
  }
  last_boundary_ = now;
  intervals_.push_back(out);
  return out;
}

void test_run::stop_senders() noexcept {
  senders_stopped_ = clock::now();  // the senders' streams end here, not at the results exchange
  for (auto& f : flows_) {
    if (sends(*f)) f->request_stop();
  }
}

void test_run::join_senders() {
  for (auto& f : flows_) {
    if (sends(*f)) f->join();
  }
}

std::size_t test_run::senders_unsent_bytes() const noexcept {
  std::size_t bytes = 0;
  for (const auto& f : flows_) {
    if (sends(*f)) bytes += f->unsent_bytes();
  }
  return bytes;
}

void test_run::finish() {
  end_ = clock::now();  // before joining: a worker may sit out its I/O timeout first
  for (auto& f : flows_) f->request_stop();
  for (auto& f : flows_) f->join();
  for (std::size_t i = 0; i < flows_.size(); ++i) states_[i].final = flows_[i]->sample();
  if (cpu_) cpu_final_ = cpu_->usage();
  // Read while the sockets are open: a server closes them on TEST_END, before the results.
  if (!flows_.empty() && !is_udp(*flows_.front())) {
    congestion_ = tcp_congestion(flows_.front()->fd());
  }
}

void test_run::close() noexcept {
  for (auto& f : flows_) f->close();
}

bool test_run::senders_done() const {
  return std::ranges::all_of(flows_, [](const auto& f) {
    return !sends(*f) || f->finished() || static_cast<bool>(f->error());
  });
}

bool test_run::has_senders() const {
  return std::ranges::any_of(flows_, [](const auto& f) { return sends(*f); });
}

std::pair<std::uint64_t, std::uint64_t> test_run::received() const {
  std::pair<std::uint64_t, std::uint64_t> got{0, 0};
  for (const auto& f : flows_) {
    if (sends(*f)) continue;
    const auto s = f->sample();
    got.first += s.bytes;
    if (is_udp(*f)) got.second += s.packets;
  }
  return got;
}

std::string test_run::flow_error() const {
  for (const auto& f : flows_) {
    if (f->error()) return fmt::format("stream {}: {}", f->config().id, f->error().message());
  }
  return {};
}

measure::stream_totals test_run::totals(std::size_t i) const {
  const flow& f = *flows_[i];
  const flow_state& st = states_[i];
  const flow_sample& base = st.base;
  measure::stream_totals t;
  t.bytes = st.final.bytes - base.bytes;
  const auto begin = rebased_ ? t0_ + spec_.omit : t0_;
  const bool stopped_early = sends(f) && senders_stopped_ != clock::time_point{};
  auto until = stopped_early ? senders_stopped_ : end_;
  // A sender that reached its -n/-k limit ended with its last block, not when the test noticed.
  if (const auto finished = f.finished_at(); sends(f) && finished && *finished < until) {
    until = std::max(*finished, begin);
  }
  t.seconds = std::chrono::duration<double>(until - begin).count();
  if (sends(f)) {
    t.packets = static_cast<std::int64_t>(st.final.packets - base.packets);
    t.omitted_packets = static_cast<std::int64_t>(base.packets);
    if (is_udp(f)) t.most_overdue = static_cast<std::int64_t>(f.most_overdue());
    if (!is_udp(f) && st.final.tcp && base.tcp) {
      t.retransmits = st.final.tcp->total_retrans - base.tcp->total_retrans;
      t.max_snd_cwnd_bytes = st.max_cwnd;
      t.max_snd_wnd_bytes = st.max_wnd;
      t.max_rtt_us = st.max_rtt;
      t.min_rtt_us = st.min_rtt;
      t.mean_rtt_us = st.rtt_count > 0 ? st.rtt_sum / st.rtt_count : -1;
    }
  } else if (is_udp(f)) {
    const auto d = measure::interval_delta(base.udp, st.final.udp);
    t.errors = d.lost;
    t.out_of_order = d.out_of_order;
    t.packets = static_cast<std::int64_t>(st.final.udp.highest_seq - base.udp.highest_seq);
    t.omitted_packets = static_cast<std::int64_t>(base.udp.highest_seq);
    t.omitted_errors = base.udp.lost;
    t.jitter_s = st.final.udp.jitter_s;
  }
  return t;
}

run_totals test_run::local_totals() const {
  run_totals r;
  r.cpu = cpu_final_;
  r.tcp_sender =
      std::ranges::any_of(flows_, [](const auto& f) { return sends(*f) && !is_udp(*f); });
  r.any_sender = std::ranges::any_of(flows_, [](const auto& f) { return sends(*f); });
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    r.streams.push_back({flows_[i]->config().id, totals(i)});
  }
  r.congestion = congestion_;
  return r;
}

measure::test_result test_run::result(const run_totals& remote) const {
  measure::test_result r;
  r.spec = spec_;
  r.intervals = intervals_;
  r.local_cpu = cpu_final_;
  r.remote_cpu = remote.cpu;
  for (const auto& f : flows_) {
    const auto t = f->thread_cpu();
    if (t && (!r.local_data_thread || t->busy_percent() > r.local_data_thread->busy_percent())) {
      r.local_data_thread = t;
    }
  }
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    const flow& f = *flows_[i];
    measure::stream_result s;
    s.id = f.config().id;
    s.local_sends = sends(f);
    const auto peer = std::ranges::find(remote.streams, s.id, &run_totals::stream::id);
    const measure::stream_totals mine = totals(i);
    measure::stream_totals theirs =
        peer != remote.streams.end() ? peer->totals : measure::stream_totals{};
    if (!theirs.omitted_known) {
      // A pre-3.14 peer counted the omitted period too and did not say how much of it: take
      // this end's count at omit end for it, as iperf3 itself does (exact without -O).
      theirs.packets = std::max<std::int64_t>(theirs.packets - mine.omitted_packets, 0);
      theirs.omitted_packets = mine.omitted_packets;
    }
    if (peer == remote.streams.end() && r.error.empty()) {
      r.error = fmt::format("the peer reported no results for stream {}", s.id);
    }
    s.sender = s.local_sends ? mine : theirs;
    s.receiver = s.local_sends ? theirs : mine;
    r.streams.push_back(s);
  }
  return r;
}

}  // namespace hil::traffic
