// Typed results of one throughput test (docs/code-style.md rule 9: the measure stage). Units are in
// the names. The iperf3 -J writer (hil/report/iperf3_json) and every evaluator read these; nothing
// here knows about sockets or JSON.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hil/measure/test_spec.hpp"
#include "hil/measure/units.hpp"

namespace hil::measure {

// One stream's share of one reporting interval, as the local end saw it.
struct stream_interval {
  int id = 0;           // iperf3 stream id: 1, 3, 4, 5, …
  bool sender = false;  // true when this end sends on the stream
  double start_s = 0;   // seconds since the test started
  double end_s = 0;
  std::uint64_t bytes = 0;    // payload bytes in the interval
  std::uint64_t packets = 0;  // UDP datagrams (sent, or received)
  // UDP receiver only:
  std::int64_t lost_packets = 0;  // sequence gaps seen in the interval
  double jitter_ms = 0;           // RFC 3550 jitter at the end of the interval
  // TCP sender only (TCP_INFO); -1 when unavailable:
  std::int64_t retransmits = -1;  // retransmitted segments in the interval
  std::int64_t snd_cwnd_bytes = -1;
  std::int64_t snd_wnd_bytes = -1;
  std::int64_t rtt_us = -1;
  std::int64_t rttvar_us = -1;
  std::int64_t pmtu = -1;
  bool omitted = false;  // inside the -O warm-up

  [[nodiscard]] double seconds() const { return end_s - start_s; }
  [[nodiscard]] double bits_per_second() const {
    return measure::bits_per_second(bytes, seconds());
  }
};

// One reporting interval: every local stream's sample.
struct interval_sample {
  std::vector<stream_interval> streams;
};

// One side's end-of-test totals for a stream (the numbers iperf3 exchanges in EXCHANGE_RESULTS).
struct stream_totals {
  std::uint64_t bytes = 0;        // payload bytes sent or received (omit excluded)
  double seconds = 0;             // the stream's duration on that side
  std::int64_t retransmits = -1;  // TCP sender; -1 when not available or not a sender
  double jitter_s = 0;            // UDP receiver
  std::int64_t errors = 0;        // UDP receiver: lost datagrams (sequence gaps)
  std::int64_t packets = 0;       // UDP: sender = datagrams sent; receiver = highest sequence seen
  // UDP, -O: packets and errors as they stood when the omitted period ended; packets and errors
  // above exclude them (iperf3 exchanges running totals and these, docs/iperf3-protocol.md §8).
  std::int64_t omitted_packets = 0;
  std::int64_t omitted_errors = 0;
  // false when the peer sent running totals without the omitted counts (iperf3 before 3.14):
  // packets and errors then still include the omitted period.
  bool omitted_known = true;
  std::int64_t out_of_order = 0;  // UDP receiver (local only; not exchanged)
  // A paced UDP sender of this process (local only; not exchanged): the most datagrams it held
  // overdue at once (traffic::flow::most_overdue); -1 when not known (a peer's sender).
  std::int64_t most_overdue = -1;
  // TCP sender extremes from TCP_INFO (local only), -1 when unknown:
  std::int64_t max_snd_cwnd_bytes = -1;
  std::int64_t max_snd_wnd_bytes = -1;
  std::int64_t max_rtt_us = -1;
  std::int64_t min_rtt_us = -1;
  std::int64_t mean_rtt_us = -1;
};

// One stream at the end: what its sender and its receiver each reported.
struct stream_result {
  int id = 0;
  bool local_sends = false;  // true when this end was the stream's sender
  stream_totals sender;      // from whichever end sent
  stream_totals receiver;    // from whichever end received
};

// CPU use over the test, percent of one core (can exceed 100 with threads).
struct cpu_usage {
  double total = 0;
  double user = 0;
  double system = 0;
};

// How this end's busiest data thread spent the test (hil/sys/thread_sched.hpp): the share of its
// wall time on a CPU, and runnable but waiting for one (other tasks, or a CPU quota, had it); the
// rest it slept on its socket. A thread busy all the time never waited for the network: the CPU
// set the rate, not the link.
struct data_thread_cpu {
  double on_cpu_percent = 0;
  double waiting_percent = 0;
  [[nodiscard]] double busy_percent() const { return on_cpu_percent + waiting_percent; }
};

// The connection a stream ran on, as `start.connected[]` reports it.
struct stream_endpoint {
  int id = 0;
  int socket = 0;  // the local fd (iperf3 prints it as the stream's [ id ])
  std::string local_host;
  int local_port = 0;
  std::string remote_host;
  int remote_port = 0;
};

// The whole test as the local end saw it, plus what the remote end reported.
struct test_result {
  test_spec spec;
  bool is_client = true;
  std::string remote_host;  // what -c named, or the accepted client's address
  int remote_port = 0;
  std::string cookie;
  // The payloads this end sent: stream id's flow fills its blocks from payload_seed + id
  // (hil/traffic/flow.hpp). Printed in the case log beside the cookie, so a capture can be checked.
  std::uint64_t payload_seed = 0;
  std::chrono::system_clock::time_point started;
  std::vector<stream_endpoint> connected;
  int tcp_mss = 0;  // control connection MSS (iperf3 start.tcp_mss_default)
  int sndbuf_actual = 0;
  int rcvbuf_actual = 0;
  std::vector<interval_sample> intervals;
  std::vector<stream_result> streams;
  cpu_usage local_cpu;
  cpu_usage remote_cpu;
  // This end's busiest data thread; nullopt where the kernel offers no per-thread schedstat.
  std::optional<data_thread_cpu> local_data_thread;
  std::string sender_congestion;  // TCP congestion control of the sending side, when known
  std::string receiver_congestion;
  std::string error;  // empty on success; iperf3's top-level "error" otherwise
  // --get-server-output: the server's own output, as text or as its -J document's text.
  std::string server_output_text;
  std::string server_output_json;
};

}  // namespace hil::measure
