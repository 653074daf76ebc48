// Client of the hilperf extension: runs TCP_RR, TCP_CRR or UDP_RR (optionally under RRUL load)
// against a hilperf-peer, negotiated on the iperf3 control connection (extension.hpp has the
// message flow). A stock iperf3 server does not offer the extension: run_workload then throws
// extension_unsupported after telling the server CLIENT_TERMINATE, so it is free again at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>

#include "hil/measure/workload.hpp"
#include "hil/session/client_auth.hpp"

namespace hil::session {

struct workload_options {
  std::string host;           // the peer
  std::uint16_t port = 5201;  // its iperf3 control port
  measure::rr_spec spec;
  std::optional<client_auth> auth;  // credentials for a peer that requires them
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds refused_retry{3'000};
  std::chrono::milliseconds busy_retry{1'000};  // retry a "busy" answer (a finishing server)
  std::chrono::milliseconds control_timeout{30'000};
  // Called after each completed transaction, on the engine's thread; must return at once.
  std::function<void(std::uint64_t transactions)> on_transaction;
};

// The peer speaks iperf3 but not the hilperf extension (a stock iperf3 -s), or an older version.
class extension_unsupported : public std::system_error {
 public:
  explicit extension_unsupported(const std::string& what)
      : std::system_error(std::make_error_code(std::errc::protocol_not_supported), what) {}
};

// Runs one RR workload. Throws extension_unsupported (above), or std::system_error for anything
// else that prevents a result: nothing listening, busy, the peer stopped answering (bounded by
// spec.response_timeout), with the likely cause.
measure::rr_result run_workload(const workload_options& options);

}  // namespace hil::session
