// What stock iPerf 2 (Debian's 2.1.8, run with -f b) prints about a run, read line by line. Pure.
//
//   [  1] 0.0000-2.0041 sec  1255380 Bytes  5011329 bits/sec                       (own figures)
//   [  1] 0.0000-2.0039 sec  1255380 Bytes  5011845 bits/sec   0.011 ms 0/854 (0%) (UDP server's)
//
// A UDP client prints its own line, then the server's report (the second shape) after
// "Server Report:"; a UDP server prints the second shape when the client's end-of-test datagram
// came; TCP ends print the first shape when the connection ends.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hil::mcu_sim {

// One figures line.
struct iperf2_figures {
  double start_seconds = 0;
  double end_seconds = 0;
  std::uint64_t bytes = 0;
  std::uint64_t bits_per_second = 0;
  // A UDP server's (or the report a UDP client received): absent on the first shape.
  std::optional<double> jitter_ms;
  std::optional<std::uint64_t> lost;
  std::optional<std::uint64_t> total;
};

// The figures on line (one line, without its end); nullopt when it is not a figures line.
[[nodiscard]] std::optional<iperf2_figures> read_figures(std::string_view line);

// "[  1] local 10.0.0.2 port 5001 connected with 10.0.0.1 port 40000": who met whom.
struct iperf2_connection {
  std::string local;
  std::uint16_t local_port = 0;
  std::string remote;
  std::uint16_t remote_port = 0;
};

// Everything iPerf 2 printed, as far as it matters to the firmware's report.
struct iperf2_run_text {
  std::vector<iperf2_figures> own;  // figures lines without loss counts, in order
  std::vector<iperf2_figures> udp;  // figures lines with loss counts, in order
  bool connected = false;           // a "connected with" line: the first packet came (or accept)
  std::vector<iperf2_connection> connections;  // each "connected with" line (a server's sessions)
  std::optional<std::uint64_t> sent;           // a UDP client's "Sent N datagrams"
  std::uint64_t out_of_order = 0;      // a UDP server's last "N datagrams received out-of-order"
  std::optional<std::string> failure;  // the first line saying the run failed ("connect failed: …")
};

// Reads all of output (complete lines only; a partial last line is left for later).
[[nodiscard]] iperf2_run_text read_run_text(std::string_view output);

}  // namespace hil::mcu_sim
