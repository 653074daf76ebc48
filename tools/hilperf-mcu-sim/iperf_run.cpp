#include "iperf_run.hpp"

#include <iostream>

#include "hil/sys/process.hpp"
#include "iperf2_text.hpp"
#include "socket_table.hpp"
#include "st67_report.hpp"
#include "st67_text.hpp"

namespace hil::mcu_sim {
namespace {

using namespace std::chrono_literals;

constexpr auto header_delay = 1s;  // the report task's first wait
constexpr auto stop_grace = 1000ms;
// How long a server's banner waits for iPerf 2 to bind its port.
constexpr auto bind_wait = 5s;

std::string lines_of(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + '\n';
  return out;
}

}  // namespace

iperf_run::iperf_run(iperf_args args, run_settings settings, clock::time_point now)
    : args_(std::move(args)), settings_(std::move(settings)), start_(now) {
  if (settings_.error_line) return;
  iperf_args played = args_;
  if (played.role == run_role::server) played.interval = 0;  // its lines would be ambiguous
  child_ = std::make_unique<sys::child_process>(
      stock_argv(played, settings_.iperf_program, settings_.rate_factor));
  std::cerr << "hilperf-mcu-sim: started " << sys::quote_command(child_->argv()) << std::endl;
}

iperf_run::~iperf_run() {
  if (child_) (void)child_->stop(stop_grace);
}

std::string iperf_run::end(std::string lines) {
  if (child_) {
    (void)child_->stop(stop_grace);
    child_.reset();
  }
  ended_ = true;
  if (settings_.never_end) return {};
  exited_ = true;
  return lines + "iperf exit\n";
}

std::string iperf_run::abort() {
  if (exited_) return {};
  // A firmware that hangs (never_end) says it aborts, and does not.
  if (!settings_.never_end) aborted_ = true;
  return "iperf aborting ...\n";
}

bool iperf_run::listening(clock::time_point now) const {
  if (args_.role == run_role::client || !child_) return true;
  if (now >= start_ + bind_wait) return true;  // the failure, if any, is iPerf 2's to say
  return port_open(args_.protocol == run_protocol::tcp, args_.port);
}

std::string iperf_run::banner() const {
  std::string out = st67::dashes() + '\n' + st67::run_banner(args_) + '\n';
  if (args_.role == run_role::client && args_.protocol == run_protocol::udp) {
    out += st67::sending_line(args_.length) + '\n';
  }
  return out + st67::dashes() + '\n';
}

std::string iperf_run::poll(clock::time_point now) {
  if (ended_) return {};
  std::string out;
  if (!banner_ && (aborted_ || listening(now))) {
    banner_ = true;
    out += banner();
  }
  if (aborted_) return out + end({});
  if (banner_ && !header_ && now >= start_ + header_delay) {
    header_ = true;
    out += st67::report_header() + '\n';
    if (settings_.error_line) return out + end(*settings_.error_line + '\n');
  }
  if (child_) out += poll_traffic(now);
  return out;
}

std::string iperf_run::poll_traffic(clock::time_point now) {
  const iperf2_run_text text = read_run_text(child_->output());
  if (text.failure) return end(st67::failure_line(*text.failure) + '\n');
  const bool client = args_.role == run_role::client;
  if (!client && args_.protocol == run_protocol::udp && !text.connected &&
      settings_.udp_server_idle.count() > 0 && now >= start_ + settings_.udp_server_idle) {
    return end("udp server recv error, error code: 11, reason: Resource temporarily unavailable\n");
  }
  const bool exited = client && child_->wait(0ms).has_value();
  if (client && !exited) {
    if (now < start_ + std::chrono::seconds(args_.seconds) + settings_.client_grace) return {};
    std::cerr << "hilperf-mcu-sim: iPerf 2 did not end; its output:\n" << child_->output();
    return end({});
  }
  if (!client && !st67_run_over(args_, text)) return {};
  if (client && !st67_run_over(args_, text)) {
    std::cerr << "hilperf-mcu-sim: iPerf 2 ended without a report; its output:\n"
              << child_->output();
  }
  std::string out = banner_ ? "" : banner();
  out += header_ ? "" : st67::report_header() + '\n';
  banner_ = header_ = true;
  return out + end(lines_of(st67_report(args_, text)));
}

}  // namespace hil::mcu_sim
