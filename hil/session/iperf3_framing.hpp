// The iperf3 protocol's side of the engine's types, over the pure codecs (wire.hpp, exchange.hpp,
// extension.hpp): the UDP datagram header (docs/iperf3-protocol.md §5), the hilperf extension's
// data connection hello (docs/hilperf-extension.md §6), and a test run's totals as the results
// exchange carries them (docs/iperf3-protocol.md §7).
#pragma once

#include <memory>

#include "hil/iperf3/exchange.hpp"
#include "hil/iperf3/extension.hpp"
#include "hil/traffic/data_framing.hpp"
#include "hil/traffic/test_run.hpp"

namespace hil::session {

// iperf3's UDP header: sec, usec and a 32-bit sequence number (64-bit with counters_64bit).
[[nodiscard]] std::shared_ptr<const traffic::datagram_format> udp_datagrams(bool counters_64bit);

// The hilperf extension's 12-byte hello ('H' 'X' version kind, then token) and UDP_RR prefix (the
// token), for the test whose accept message carried token.
[[nodiscard]] std::shared_ptr<const traffic::connection_hello> extension_hello(
    const iperf3::data_token& token);

// A fresh token for a test, from std::random_device.
[[nodiscard]] iperf3::data_token new_data_token();

// An end's totals as its results message: sender_has_retransmits 1 for a TCP sender, 0 for
// another sender, -1 for a receiver only; start_time 0 and end_time the stream's seconds.
[[nodiscard]] iperf3::exchange_results to_exchange(const traffic::run_totals& t);

// The totals a peer's results message reports.
[[nodiscard]] traffic::run_totals from_exchange(const iperf3::exchange_results& r);

}  // namespace hil::session
