// The client side of the request/response workloads (TCP_RR, TCP_CRR, UDP_RR) and of RRUL load,
// against a peer serving a request/response data plane (the hilperf extension's,
// docs/hilperf-extension.md); each TCP connection opens with the protocol's connection_hello.
//
//   load (optional): N sink + N source TCP connections, one thread each, started first and given
//   a warm-up so the queues are full ──▶ transactions for spec.duration, one at a time, each
//   timed from the first byte sent to the last byte received ──▶ load stopped.
//
// Latency is the full round trip as the application sees it (netperf's and sockperf's RTT, not
// half of it).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

#include "hil/measure/workload.hpp"
#include "hil/traffic/data_framing.hpp"
#include "hil/traffic/rr_io.hpp"

namespace hil::traffic {

// How long load runs before the transactions start, so the link is saturated when they do.
inline constexpr std::chrono::milliseconds load_warmup{1'000};

// Called after each completed transaction with the count so far, on the thread that runs them:
// it must return at once (tests use it to know that transactions flow).
using rr_progress = std::function<void(std::uint64_t transactions)>;

// Runs spec against the peer's data listeners: tcp (port of its TCP listener) and udp (its UDP
// socket), each TCP connection opened with hello and each UDP_RR request after its datagram prefix.
// Throws std::system_error when the run cannot
// complete: the peer stopped answering (after spec.response_timeout, TCP), refused or reset a
// connection, with the transaction number.
measure::rr_result run_rr(const measure::rr_spec& spec, const socket_address& tcp,
                          const socket_address& udp, const connection_hello& hello,
                          const rr_progress& progress = {});

}  // namespace hil::traffic
