// The iperf 2 client: runs one test against a stock `iperf -s` (or `iperf -s -u`) or hilperf-peer's
// iperf 2 port, and returns it in iperf3's shape so every check and report reads it alike
// (docs/iperf2-protocol.md).
//
//   TCP  each stream: connect ─ header ─▶ ◀─ ack (28 B, iperf 2 ≥ 2.0.10) ─ data for -t ─
//        shutdown(WR) ─ wait for the server's close: it has read every byte, so the receiver's
//        count is the sender's (iperf 2 sends no figures back over TCP)
//   UDP  each stream: datagrams with prefix + header for -t ─ FIN every 10 ms ─▶
//        ◀─ server report: bytes, lost, out-of-order, highest sequence, jitter (the FIN taken
//        out, so both ends count data datagrams)
//
//   -R   the same connection turned round: the server sends for the header's -t (or -n) and
//        closes (TCP: we read to its close, so it sent what we received) or ends with one FIN
//        that says how many it sent (UDP: our receiver counts loss, out-of-order, jitter)
//   --bidir  iperf 2's --full-duplex over TCP: both ways on one connection; the server's TCP
//        acknowledging all of ours stands for its count (it sends no figures back)
//
// Not offered (a clear error up front): -O, -k, --get-server-output, UDP --bidir (iperf 2 sends
// no report for it), authentication. A server that answers as iperf3 is named as such.
#pragma once

#include "hil/measure/results.hpp"
#include "hil/session/iperf3_client.hpp"

namespace hil::session {

// Runs o.spec against the iperf 2 server at o.host:o.port (iperf 2's default port is 5001).
// Throws std::system_error with the likely cause: nothing listening, no report (no UDP server
// there), a server that speaks iperf3, an option iperf 2 cannot carry.
measure::test_result run_iperf2_client(const client_options& o);

}  // namespace hil::session
