// iperf3-style human-readable text, printed live while a test runs: the lines stock `iperf3`
// prints without -J, from iperf3 3.12's report formats (src/iperf_locale.c) and its adaptive
// units (src/units.c unit_snprintf). Every function returns whole lines, each ending in '\n',
// with iperf3's trailing padding kept, so our logs diff cleanly against stock ones. For people
// only: reports and evaluators read the typed results or the JSON, never this text.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "hil/measure/results.hpp"

namespace hil::report {

// What live lines need beyond one sample: the --bidir role column and the id -> socket map.
struct text_layout {
  bool bidir = false;     // adds iperf3's "[Role]" column: [TX-C], [RX-C], [TX-S], [RX-S]
  bool is_client = true;  // the C or S of the role; decides which direction is listed first
  std::vector<measure::stream_endpoint> connected;  // [ ID] shows the socket, else the stream id
};

// The layout a test result describes (spec.bidirectional, is_client, connected).
[[nodiscard]] text_layout layout_of(const measure::test_result& r);

// A byte count in iperf3's adaptive 1024-based unit with a 4-character number: " 112 MBytes".
[[nodiscard]] std::string format_bytes(double bytes);

// A rate in iperf3's adaptive 1000-based unit with a 4-character number: " 941 Mbits/sec".
[[nodiscard]] std::string format_bitrate(double bits_per_second);

// "[  5] local 192.168.1.10 port 40564 connected to 192.168.1.195 port 5002\n".
[[nodiscard]] std::string format_connected(const measure::stream_endpoint& e);

// The header printed once before the first interval: "… Retr  Cwnd" for a TCP sender, plain for
// a TCP receiver, "… Total Datagrams" for a UDP sender, "… Jitter    Lost/Total Datagrams" for a
// UDP receiver and for UDP --bidir; `bidir` adds the "[Role]" column.
[[nodiscard]] std::string format_interval_header(measure::protocol proto, bool sender,
                                                 bool bidir = false);

// One interval: a line per stream and, per direction with more than one stream, a [SUM] line.
// Like iperf3, it starts with the "- - -" separator when there is more than one stream per
// direction and this is not the first interval (its first stream does not start at 0).
[[nodiscard]] std::string format_interval(const measure::interval_sample& sample,
                                          measure::protocol proto, const text_layout& layout = {});

// The end of the test: separator, header, each stream's sender and receiver lines, and [SUM]
// lines per direction with more than one stream. Unlike a stock 3.12 server, which prints before
// the results exchange, both sides' lines are printed whichever end this is.
[[nodiscard]] std::string format_summary(const measure::test_result& r);

// What a server prints for one test, as stock `iperf3 -s` does: "Accepted connection from …",
// the streams' "connected" lines, the interval table and the summary. hilperf-peer sends it to
// a client that asked --get-server-output.
[[nodiscard]] std::string format_server_output(const measure::test_result& r);

// The client's "Server output:" section after its summary (or "Server JSON output:" with the
// server's -J document pretty-printed), as iperf3 -c --get-server-output prints it; empty when
// the server sent none.
[[nodiscard]] std::string format_server_output_section(const measure::test_result& r);

// The live lines of one test as iperf3 prints them while it runs: each stream's "connected" line,
// then the interval header once and every interval, flushed as they come. Callers wire it to the
// client's callbacks (on_connected, on_interval). Not thread-safe: one test, one printer.
class live_printer {
 public:
  // Prints to out (which must outlive the printer) for a test of spec.
  live_printer(std::ostream& out, const measure::test_spec& spec);
  void connected(const measure::stream_endpoint& e);
  void interval(const measure::interval_sample& s);

 private:
  std::ostream& out_;
  measure::protocol proto_;
  text_layout layout_;
  bool header_printed_ = false;
};

}  // namespace hil::report
