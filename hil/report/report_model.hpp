// The typed sections a report shows, picked out of the run's records: the netperf table, throughput
// per interval, latency percentiles and CDFs, datagram counts per MTU tier, each from the records
// of its kind (hil/record). Nothing here formats text; the table and HTML writers only serialise
// these types.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hil/report/results_file.hpp"

namespace hil::report {

// netperf's tests in the order its results pages list them (procedure 003).
inline constexpr std::array<std::string_view, 6> netperf_tests{
    "TCP_STREAM", "UDP_STREAM", "TCP_MAERTS", "TCP_RR", "TCP_CRR", "UDP_RR"};

// A latency distribution's summary in microseconds, as the charts read it.
struct latency_figures {
  std::optional<double> count, min, mean, p50, p90, p99, p999, max;  // µs
};

// Cumulative distribution: (microseconds, fraction of samples at or below) in rising order.
using cdf_points = std::vector<std::pair<double, double>>;

// One netperf test's iterations (a Workload/NetperfSuite.Iterations/<test> record, kind netperf).
struct netperf_row {
  std::string test;                        // "TCP_RR"
  std::string unit;                        // "trans/s" or "Mbit/s"; empty when not recorded
  bool recorded = false;                   // false: no record (e.g. RR skipped on stock iperf3)
  bool pass = false;                       // the record's verdict
  std::vector<double> iterations;          // one value per iteration, in run order
  std::optional<double> average;           // as recorded
  std::optional<double> ci_half_width;     // ± of the confidence interval, in unit
  std::optional<double> confidence_level;  // percent, e.g. 99
  std::optional<bool> confidence_met;      // whether the interval met the requested width
  std::optional<latency_figures> latency;  // RR tests
  cdf_points latency_cdf;                  // RR tests
  std::vector<std::vector<double>> interval_mbps;  // stream tests: per iteration, per interval
};

// Per-interval throughput of one TCP case, or of one iteration of a netperf stream test.
struct throughput_series {
  std::string group;          // what the series belongs to: "TCP throughput" or the netperf test
  std::string label;          // "DutTransmits", "iteration 1"
  std::vector<double> mbits;  // Mbit/s per interval
};

// A labelled latency distribution (an RR test, or idle / loaded of LatencyUnderLoad).
struct latency_set {
  std::string label;  // "TCP_RR", "idle", "loaded"
  latency_figures latency;
  cdf_points cdf;  // may be empty
};

// The load of LatencyUnderLoad while the loaded latency was measured.
struct load_figures {
  std::optional<double> up_mbps, down_mbps, streams;
};

// Datagrams counted at one MTU tier, by the per-tier case and by the count check.
struct mtu_datagrams {
  int mtu = 0;
  std::optional<double> sent;     // UdpZeroLoss datagrams_sent
  std::optional<double> lost;     // UdpZeroLoss lost
  std::optional<double> counted;  // DatagramCounts datagrams_mtu<N>
};

// Where a frame size's figures were measured: the board (empty outside a farm), the line rate
// of the media maximum, and the frames' path (measure/frame_path.hpp's words; "" for IPv4 frames
// the DUT sends). The frame tables give each its column group, the charts each their series.
struct port_id {
  std::string board;
  double line_mbps = 0;
  std::string path;
  friend bool operator==(const port_id&, const port_id&) = default;
};

// A row's port_id (any row below: each has board, line_mbps and path).
template <typename Row>
[[nodiscard]] port_id port_of(const Row& r) {
  return {r.board, r.line_mbps, r.path};
}

// "board-a, 1000 Mbit/s link", "10 Mbit/s link" without a board, ", DUT receives" and the like
// appended for a path other than the default.
[[nodiscard]] std::string port_label(const port_id& p);

// One frame size's RFC 2544 throughput (an Rfc2544/Throughput record, kind rfc2544_throughput),
// on one board at one line rate: a column group of the frame-size table.
struct frame_result {
  int frame = 0;              // Ethernet frame bytes
  double line_mbps = 0;       // the media maximum's line rate
  std::string board;          // the farm board; empty outside a farm
  double media_max_fps = 0;   // line / ((frame + 20) · 8)
  std::optional<double> fps;  // the loss-free rate found; none: see note
  bool pass = false;
  // Why there is no figure (the sender's limit, no loss-free rate, skipped), or with one, why it
  // is a lower bound (the sender's cap).
  std::string note;
  std::string path;  // port_id's
  // The found rate as frame bits (Mbit/s, RFC 2544's and seed 003's) and as % of the maximum.
  [[nodiscard]] std::optional<double> mbps() const {
    return fps ? std::optional(*fps * frame * 8 / 1e6) : std::nullopt;
  }
  [[nodiscard]] std::optional<double> percent() const {
    return fps && media_max_fps > 0 ? std::optional(100 * *fps / media_max_fps) : std::nullopt;
  }
};

// One frame size's RFC 2544 frame loss sweep (an Rfc2544/FrameLoss record): the loss at each
// offered load, as the sweep measured it last.
struct loss_curve {
  int frame = 0;
  double line_mbps = 0;
  std::string board;
  std::vector<std::pair<double, double>> points;  // (load to 0.1 %, loss %), as first run
  bool pass = false;
  // The sweep stopped at the sender's limit; empty otherwise. Loads above the sender's cap were
  // not offered and have no point.
  std::string note;
  std::string path;  // port_id's
};

// One frame size's RFC 2544 back-to-back result (an Rfc2544/BackToBack record).
struct burst_row {
  int frame = 0;
  double line_mbps = 0;
  std::string board;
  double media_max_fps = 0;
  double average_frames = 0;  // the repeats' longest whole burst, averaged
  double spread_frames = 0;
  std::size_t repeats = 0;
  bool at_line_rate = true;  // every burst left at line rate
  bool pass = false;
  std::string path;  // port_id's
};

// One frame size's RFC 2544 latency (an Rfc2544/Latency record): round trips of echo probes of
// the frame size while the port carried its load.
struct frame_latency_row {
  int frame = 0;
  double line_mbps = 0;
  std::string board;
  double load_percent = 0;
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
  int probes_sent = 0, probes_received = 0;
  bool pass = false;
  std::string path;  // port_id's
};

// One frame size's Y.1564 service configuration test (a Y1564 record): its CIR and every step.
struct service_result {
  int frame = 0;
  double line_mbps = 0;
  std::string board;
  double cir_mbps = 0;
  std::vector<record::y1564_step_record> steps;  // in the order run
  bool pass = false;
  std::string path;  // port_id's
};

// Everything the report sections show.
struct report_model {
  std::vector<netperf_row> netperf;  // netperf order; empty when the run had no netperf record
  std::vector<throughput_series> throughput;
  std::vector<latency_set> latency;              // RR tests in netperf order, then idle and loaded
  std::optional<load_figures> load;              // present with a LatencyUnderLoad record
  std::vector<mtu_datagrams> datagrams;          // rising MTU
  std::vector<frame_result> frames;              // by board, line rate, then rising frame size
  std::vector<loss_curve> losses;                // the same order
  std::vector<burst_row> bursts;                 // the same order
  std::vector<frame_latency_row> frame_latency;  // the same order
  std::vector<service_result> services;          // the same order
};

// The sections of records. Pure: same records, same model.
[[nodiscard]] report_model build_model(const std::vector<record::case_record>& records);

// The netperf test a record carries (figures.test, one of netperf_tests), or empty.
[[nodiscard]] std::string_view netperf_test_of(const record::case_record& r);

// The part of a gtest name after its last '/' or '.', e.g. "DutTransmits", "mtu1500".
[[nodiscard]] std::string short_case_name(std::string_view case_name);

}  // namespace hil::report
