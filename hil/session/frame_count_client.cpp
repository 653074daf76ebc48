#include "hil/session/frame_count_client.hpp"

#include <random>

#include "hil/session/control_channel.hpp"
#include "hil/session/control_connect.hpp"
#include "hil/session/extension_answer.hpp"

namespace hil::session {
namespace {

using asio::ip::tcp;

class frame_count_session {
 public:
  frame_count_session(const frame_count_options& o,
                      const std::function<void(const frame_count_target&)>& send, tcp::endpoint to)
      : o_(o),
        send_(send),
        to_(std::move(to)),
        cookie_(iperf3::make_cookie(std::random_device{}())) {}

  awaitable<frame_count_outcome> run() {
    measure::test_spec bind;
    bind.bind_device = o_.bind_device;
    const connect_settings how{o_.host, o_.port, o_.connect_timeout, o_.refused_retry};
    co_return co_await with_busy_retry<frame_count_outcome>(
        how, to_, bind, o_.busy_retry, st_, [this](control_channel& ctl) { return exchange(ctl); });
  }

 private:
  awaitable<frame_count_outcome> exchange(control_channel& ctl) {
    co_await ctl.write_bytes(
        std::span(reinterpret_cast<const std::uint8_t*>(cookie_.data()), cookie_.size()));
    co_await expect_state(ctl, st_, iperf3::state::param_exchange, o_.control_timeout, o_.auth);
    st_.answered = true;
    co_await ctl.write_frame(iperf3::encode_frame_count_params(o_.request, authtoken_now(o_.auth)));
    frame_count_outcome out;
    out.accept = iperf3::decode_count_accept(co_await read_extension_accept(
        ctl, st_, iperf3::frame_count_workload, o_.control_timeout, o_.auth));
    send_(frame_count_target{ctl.socket().remote_endpoint().address().to_string(), out.accept});
    co_await ctl.write_state(iperf3::state::test_end);
    co_await expect_state(ctl, st_, iperf3::state::exchange_results, o_.control_timeout, o_.auth);
    out.counted = iperf3::decode_count_results(
        co_await ctl.read_frame(iperf3::max_results_json, o_.control_timeout));
    st_.done = true;
    co_await ctl.write_state(iperf3::state::iperf_done);
    ctl.close();
    co_return out;
  }

  const frame_count_options& o_;
  const std::function<void(const frame_count_target&)>& send_;
  tcp::endpoint to_;
  std::string cookie_;
  attempt_state st_;
};

}  // namespace

frame_count_outcome run_frame_count(const frame_count_options& options,
                                    const std::function<void(const frame_count_target&)>& send) {
  asio::io_context io;
  frame_count_session session(options, send, resolve_peer(options.host, options.port));
  return run_to_end(io, session.run());
}

}  // namespace hil::session
