// The flows of one test and their measurement: intervals while it runs, totals at the end, and the
// typed result once the peer's totals are known. Used by both the client and the server side.
//
//   add_flow… ─ start() ─ sample_interval() every -i ─ stop_senders() ─ finish() ─ result()
//                  t0            (omit: samples flagged, totals rebased at t0 + omit)
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "hil/measure/cpu_meter.hpp"
#include "hil/measure/results.hpp"
#include "hil/traffic/flow.hpp"

namespace hil::traffic {

// One end's totals of a test, as the two ends exchange them when it ends (iperf3's results
// exchange carries these; the session converts).
struct run_totals {
  measure::cpu_usage cpu;   // this end's process CPU over the test
  bool tcp_sender = false;  // some stream of this end sends TCP (it has retransmit counts)
  bool any_sender = false;  // some stream of this end sends
  struct stream {
    int id = 0;  // the protocol's stream id
    measure::stream_totals totals;
  };
  std::vector<stream> streams;  // in stream order
  std::string congestion;       // TCP congestion control of the first stream; empty for UDP
};

class test_run {
 public:
  using clock = std::chrono::steady_clock;

  explicit test_run(measure::test_spec spec);

  // Adds a flow; flows are kept in stream-id order of creation.
  void add_flow(std::unique_ptr<flow> f);
  // Starts every flow; t0 of the intervals.
  void start();
  // Closes the interval that ends at now: one sample per flow, stored and returned.
  measure::interval_sample sample_interval(clock::time_point now);
  // Asks the senders to stop (the client does this at the end of -t).
  void stop_senders() noexcept;
  // Waits until the senders asked to stop have stopped (their last datagram is out).
  void join_senders();
  // What this host still holds of the senders' data (flow::unsent_bytes summed).
  [[nodiscard]] std::size_t senders_unsent_bytes() const noexcept;
  // Stops and joins every flow and takes the final totals; the sockets stay open until close().
  void finish();
  // Closes every data socket.
  void close() noexcept;

  // True when every sender stopped by itself (-n/-k reached) or failed.
  [[nodiscard]] bool senders_done() const;
  // Whether this side sends on any stream (a -R client does not).
  [[nodiscard]] bool has_senders() const;
  // What this side's receivers got so far: payload bytes, and datagrams (UDP) or 0 (TCP).
  [[nodiscard]] std::pair<std::uint64_t, std::uint64_t> received() const;
  // The first flow error, if any ("stream 3: Connection reset by peer").
  [[nodiscard]] std::string flow_error() const;
  // This side's totals for the results exchange.
  [[nodiscard]] run_totals local_totals() const;
  // The typed result, merging this side's totals with the peer's; a stream the peer reported
  // nothing for gets empty totals and the result an error naming it.
  [[nodiscard]] measure::test_result result(const run_totals& remote) const;

  [[nodiscard]] const measure::test_spec& spec() const noexcept { return spec_; }
  [[nodiscard]] clock::time_point t0() const noexcept { return t0_; }
  [[nodiscard]] const std::vector<std::unique_ptr<flow>>& flows() const noexcept { return flows_; }
  [[nodiscard]] const std::vector<measure::interval_sample>& intervals() const noexcept {
    return intervals_;
  }

 private:
  // Per-flow bookkeeping between samples.
  struct flow_state {
    flow_sample last;   // at the previous interval boundary
    flow_sample base;   // at the end of the omit period (totals start here)
    flow_sample final;  // after finish()
    std::int64_t max_cwnd = -1, max_wnd = -1, max_rtt = -1, min_rtt = -1;
    std::int64_t rtt_sum = 0, rtt_count = 0;
  };
  // This side's totals for one flow.
  [[nodiscard]] measure::stream_totals totals(std::size_t i) const;
  [[nodiscard]] double seconds_since_t0(clock::time_point t) const;

  measure::test_spec spec_;
  std::vector<std::unique_ptr<flow>> flows_;
  std::vector<flow_state> states_;  // parallel to flows_
  std::vector<measure::interval_sample> intervals_;
  clock::time_point t0_{};                   // start()
  clock::time_point last_boundary_{};        // end of the previous interval
  clock::time_point end_{};                  // finish()
  clock::time_point senders_stopped_{};      // stop_senders(): where this side ended the test
  bool rebased_ = false;                     // omit period over, base taken
  std::unique_ptr<measure::cpu_meter> cpu_;  // from start()
  measure::cpu_usage cpu_final_;             // at finish()
  std::string congestion_;                   // TCP congestion control of stream 1, at finish()
};

}  // namespace hil::traffic
