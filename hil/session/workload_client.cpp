#include "hil/session/workload_client.hpp"

#include <random>

#include <fmt/format.h>

#include "hil/iperf3/extension.hpp"
#include "hil/session/control_channel.hpp"
#include "hil/session/control_connect.hpp"
#include "hil/session/iperf3_framing.hpp"
#include "hil/traffic/rr_engine.hpp"

namespace hil::session {
namespace {

using asio::ip::tcp;

// The data listeners the peer announced, at the address the control connection reached, and the
// test's token, which every data connection and datagram carries.
struct data_ports {
  traffic::socket_address tcp;
  traffic::socket_address udp;
  iperf3::data_token token;
};

class workload_session {
 public:
  workload_session(const workload_options& o, tcp::endpoint to)
      : o_(o), to_(std::move(to)), cookie_(iperf3::make_cookie(std::random_device{}())) {}

  awaitable<measure::rr_result> run() {
    measure::test_spec bind;
    bind.bind_device = o_.spec.bind_device;
    const connect_settings how{o_.host, o_.port, o_.connect_timeout, o_.refused_retry};
    // A server still busy with its last test: retry briefly (control_connect.hpp).
    co_return co_await with_busy_retry<measure::rr_result>(
        how, to_, bind, o_.busy_retry, st_, [this](control_channel& ctl) { return exchange(ctl); });
  }

 private:
  awaitable<measure::rr_result> exchange(control_channel& ctl) {
    co_await ctl.write_bytes(
        std::span(reinterpret_cast<const std::uint8_t*>(cookie_.data()), cookie_.size()));
    co_await expect(ctl, iperf3::state::param_exchange);
    st_.answered = true;
    co_await ctl.write_frame(iperf3::encode_request_params(o_.spec, authtoken_now(o_.auth)));
    const data_ports ports = co_await negotiate(ctl);
    // The workload itself blocks this thread: nothing else runs on the control connection
    // meanwhile, and every data-plane wait is bounded by spec.response_timeout.
    measure::rr_result r = traffic::run_rr(o_.spec, ports.tcp, ports.udp,
                                           *extension_hello(ports.token), o_.on_transaction);
    co_await ctl.write_state(iperf3::state::test_end);
    co_await expect(ctl, iperf3::state::exchange_results);
    const auto remote = iperf3::decode_ext_results(
        co_await ctl.read_frame(iperf3::max_results_json, o_.control_timeout));
    st_.done = true;
    co_await ctl.write_state(iperf3::state::iperf_done);
    ctl.close();
    r.peer_transactions = remote.transactions;
    r.remote_cpu = {remote.cpu_util_total, remote.cpu_util_user, remote.cpu_util_system};
    co_return r;
  }

  // The peer's answer to the request: the data ports, or why there are none.
  awaitable<data_ports> negotiate(control_channel& ctl) {
    std::array<std::uint8_t, 1> byte{};
    co_await ctl.read_exact(byte, o_.control_timeout);
    const std::string what(measure::workload_name(o_.spec.kind));
    if (byte[0] == iperf3::extension_accept) {
      const auto m = iperf3::decode_accept(
          co_await ctl.read_frame(iperf3::max_param_json, o_.control_timeout));
      const auto at = traffic::socket_address::parse(to_.address().to_string(), 0);
      co_return data_ports{at.with_port(m.tcp_port), at.with_port(m.udp_port), m.token};
    }
    if (byte[0] == iperf3::extension_refuse) {
      const auto why = iperf3::decode_refuse(
          co_await ctl.read_frame(iperf3::max_param_json, o_.control_timeout));
      st_.done = true;
      throw extension_unsupported(fmt::format("{} refused {}: {}", ctl.peer(), what, why));
    }
    if (byte[0] == iperf3::state_to_byte(iperf3::state::create_streams)) {
      // A stock iperf3 server took the request for a plain TCP test: release it, and wait for it
      // to close the connection so its next client finds it listening again.
      ctl.send_state_best_effort(iperf3::state::client_terminate);
      st_.done = true;
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
    co_await fail_on(byte[0], ctl);
    throw std::logic_error("unreachable");
  }

  // Reads the next state and fails unless it is want.
  awaitable<void> expect(control_channel& ctl, iperf3::state want) {
    std::array<std::uint8_t, 1> byte{};
    co_await ctl.read_exact(byte, o_.control_timeout);
    if (byte[0] != iperf3::state_to_byte(want)) co_await fail_on(byte[0], ctl);
  }

  // Turns an unexpected control byte into its error.
  awaitable<void> fail_on(std::uint8_t byte, control_channel& ctl) {
    const auto s = iperf3::state_from_byte(byte);
    if (!s) {
      throw std::system_error(
          std::make_error_code(std::errc::protocol_error),
          fmt::format("unexpected control byte 0x{:02x} from {}", byte, ctl.peer()));
    }
    if (server_gave_up(*s)) st_.done = true;
    co_await throw_for_state(ctl, *s, o_.control_timeout, auth_refusal_hint(o_.auth));
  }

  const workload_options& o_;
  tcp::endpoint to_;
  std::string cookie_;
  attempt_state st_;  // of the current attempt (control_connect.hpp)
};

}  // namespace

measure::rr_result run_workload(const workload_options& options) {
  if (!measure::is_request_response(options.spec.kind)) {
    throw std::invalid_argument(fmt::format("{} is not a request/response workload",
                                            measure::workload_name(options.spec.kind)));
  }
  asio::io_context io;
  workload_session session(options, resolve_peer(options.host, options.port));
  return run_to_end(io, session.run());
}

}  // namespace hil::session
