#include "cases/probed_trial.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <future>
#include <optional>
#include <thread>

#include "hil/traffic/icmp_echo.hpp"

namespace hil::cases {

using namespace std::chrono_literals;

probed_trial run_probed_trial(const session::frame_trial_options& t, const std::string& ifname,
                              double total_fps, double probe_share,
                              std::chrono::milliseconds duration) {
  probed_trial out;
  // Probes: probe_share of the frames at most, 100 a second at most.
  out.interval = std::chrono::milliseconds(static_cast<long>(
      std::ceil(std::max(10.0, 1000.0 / (probe_share * std::max(total_fps, 1.0))))));
  const double stream_fps = total_fps - 1000.0 / static_cast<double>(out.interval.count());
  const auto lead = 200ms + duration / 10;
  const auto window = duration * 8 / 10;
  traffic::echo_options echo;
  echo.count = std::max(1, static_cast<int>(window / out.interval));
  echo.interval = out.interval;
  echo.timeout = 1s;
  // Ethernet header and FCS, the IP header, ICMP's.
  echo.payload_bytes = t.frame_bytes - 18 - (t.ipv6 ? 40 : 20) - 8;
  const auto start = std::chrono::steady_clock::now();
  echo.stop_sending_at = start + lead + window;
  auto probing = std::async(std::launch::async, [&] {
    std::this_thread::sleep_until(start + lead);
    return traffic::icmp_echo(t.base.host, ifname, echo);
  });
  std::optional<measure::trial_outcome> stream;
  std::exception_ptr failed;
  try {
    stream = session::run_frame_trial(t, stream_fps, duration);
  } catch (...) {
    failed = std::current_exception();
  }
  const traffic::echo_result probes = probing.get();  // bounded: the window and one timeout
  if (failed) std::rethrow_exception(failed);
  out.trial.stream = *stream;
  out.trial.duration = duration;
  out.trial.probe_window = window;
  for (const auto rtt : probes.rtts) out.round_trips.record(rtt);
  out.trial.probes_sent = probes.sent;
  out.trial.probes_received = probes.received;
  out.trial.round_trip = out.round_trips.summarize();
  return out;
}

}  // namespace hil::cases
