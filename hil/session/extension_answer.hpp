// The client's reading of a hilperf-peer's answer to an extension request
// (docs/hilperf-extension.md §4, §8), shared by the workload client and the frame count client:
// the accept frame, or the refusal, a stock server's CREATE_STREAMS or an iperf3 error state
// thrown as what it means.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "hil/session/client_auth.hpp"
#include "hil/session/control_channel.hpp"
#include "hil/session/control_connect.hpp"

namespace hil::session {

// The accept message's JSON after 0x40. Throws extension_unsupported (workload_client.hpp) for a
// refusal ("<peer> refused <what>: <reason>") or a stock iperf3 server (released at once with
// CLIENT_TERMINATE), std::system_error for any other state; st.done is set when the server
// expects nothing more.
awaitable<std::string> read_extension_accept(control_channel& ctl, attempt_state& st,
                                             std::string_view what,
                                             std::chrono::milliseconds timeout,
                                             const std::optional<client_auth>& auth);

// Reads the next state and throws (as read_extension_accept) unless it is want.
awaitable<void> expect_state(control_channel& ctl, attempt_state& st, iperf3::state want,
                             std::chrono::milliseconds timeout,
                             const std::optional<client_auth>& auth);

}  // namespace hil::session
