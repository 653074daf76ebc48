#include "hil/session/extension_answer.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "hil/iperf3/extension.hpp"
#include "hil/session/workload_client.hpp"

namespace hil::session {
namespace {

// Turns an unexpected control byte into its error.
awaitable<void> fail_on(std::uint8_t byte, control_channel& ctl, attempt_state& st,
                        std::chrono::milliseconds timeout, const std::optional<client_auth>& auth) {
  const auto s = iperf3::state_from_byte(byte);
  if (!s) {
    throw std::system_error(
        std::make_error_code(std::errc::protocol_error),
        fmt::format("unexpected control byte 0x{:02x} from {}", byte, ctl.peer()));
  }
  if (server_gave_up(*s)) st.done = true;
  co_await throw_for_state(ctl, *s, timeout, auth_refusal_hint(auth));
}

}  // namespace

awaitable<std::string> read_extension_accept(control_channel& ctl, attempt_state& st,
                                             std::string_view what,
                                             std::chrono::milliseconds timeout,
                                             const std::optional<client_auth>& auth) {
  std::array<std::uint8_t, 1> byte{};
  co_await ctl.read_exact(byte, timeout);
  if (byte[0] == iperf3::extension_accept) {
    co_return co_await ctl.read_frame(iperf3::max_param_json, timeout);
  }
  if (byte[0] == iperf3::extension_refuse) {
    const auto why =
        iperf3::decode_refuse(co_await ctl.read_frame(iperf3::max_param_json, timeout));
    st.done = true;
    throw extension_unsupported(fmt::format("{} refused {}: {}", ctl.peer(), what, why));
  }
  if (byte[0] == iperf3::state_to_byte(iperf3::state::create_streams)) {
    // A stock iperf3 server took the request for a plain TCP test: release it, and wait for it
    // to close the connection so its next client finds it listening again.
    ctl.send_state_best_effort(iperf3::state::client_terminate);
    st.done = true;
    try {
      (void)co_await ctl.read_state(std::chrono::seconds(2));
    } catch (const std::system_error&) {
      // EOF: released (or it took too long: the next client retries a refused connect).
    }
    throw extension_unsupported(
        fmt::format("the peer at {} is a stock iperf3 server: {} needs the hilperf extension "
                    "(run hilperf-peer on the peer)",
                    ctl.peer(), what));
  }
  co_await fail_on(byte[0], ctl, st, timeout, auth);
  throw std::logic_error("unreachable");
}

awaitable<void> expect_state(control_channel& ctl, attempt_state& st, iperf3::state want,
                             std::chrono::milliseconds timeout,
                             const std::optional<client_auth>& auth) {
  std::array<std::uint8_t, 1> byte{};
  co_await ctl.read_exact(byte, timeout);
  if (byte[0] != iperf3::state_to_byte(want)) co_await fail_on(byte[0], ctl, st, timeout, auth);
}

}  // namespace hil::session
