#include "hil/session/workload_client.hpp"

#include <random>

#include <fmt/format.h>

#include "hil/iperf3/extension.hpp"
#include "hil/session/control_channel.hpp"
#include "hil/session/control_connect.hpp"
#include "hil/session/extension_answer.hpp"
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
    const auto m = iperf3::decode_accept(co_await read_extension_accept(
        ctl, st_, measure::workload_name(o_.spec.kind), o_.control_timeout, o_.auth));
    const auto at = traffic::socket_address::parse(to_.address().to_string(), 0);
    co_return data_ports{at.with_port(m.tcp_port), at.with_port(m.udp_port), m.token};
  }

  awaitable<void> expect(control_channel& ctl, iperf3::state want) {
    return expect_state(ctl, st_, want, o_.control_timeout, o_.auth);
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
