#include "zperf_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "hil/sys/process.hpp"
#include "iperf2_text.hpp"
#include "socket_table.hpp"
#include "stock_iperf.hpp"
#include "zperf_report.hpp"

namespace hil::mcu_sim {
namespace {

using namespace std::chrono_literals;

constexpr auto error_delay = 1s;  // when an error_line comes
constexpr auto stop_grace = 1000ms;
constexpr auto bind_wait = 5s;

std::unique_ptr<sys::child_process> started(const stock_plan& plan, const run_settings& s) {
  auto child = std::make_unique<sys::child_process>(stock_argv(plan, s.iperf_program));
  std::cerr << "hilperf-mcu-sim: started " << sys::quote_command(child->argv()) << std::endl;
  return child;
}

// The negative errno zperf returns for what stock iPerf 2 said ("connect failed: Connection
// refused" → -111; Zephyr's errno values are Linux's here).
int errno_of(const std::string& failure) {
  if (failure.find("refused") != std::string::npos) return -111;
  if (failure.find("unreachable") != std::string::npos) return -113;
  if (failure.find("timed out") != std::string::npos) return -110;
  return -5;
}

}  // namespace

zperf_upload_run::zperf_upload_run(zperf::upload u, run_settings settings, clock::time_point now)
    : upload_(std::move(u)), settings_(std::move(settings)), start_(now) {
  if (settings_.error_line) return;
  stock_plan plan;
  plan.role = run_role::client;
  plan.protocol = upload_.protocol;
  plan.peer = upload_.peer;
  plan.port = upload_.port;
  plan.seconds = static_cast<int>(upload_.seconds);
  plan.length = static_cast<int>(std::min(upload_.packet_size, zperf::max_packet_size));
  if (upload_.protocol == run_protocol::udp) {
    plan.bits_per_second = static_cast<std::uint64_t>(static_cast<double>(upload_.rate_kbps) *
                                                      1000 * settings_.rate_factor);
  }
  child_ = started(plan, settings_);
}

zperf_upload_run::~zperf_upload_run() {
  if (child_) (void)child_->stop(stop_grace);
}

std::optional<std::string> zperf_upload_run::poll(clock::time_point now) {
  if (silent_) return std::nullopt;
  const char* proto = upload_.protocol == run_protocol::udp ? "UDP" : "TCP";
  if (!child_) {
    if (now < start_ + error_delay) return std::nullopt;
    silent_ = settings_.never_end;
    if (silent_) return std::nullopt;
    return zperf::error(*settings_.error_line) + "\n";
  }
  if (!child_->wait(0ms)) {
    const auto limit = start_ + std::chrono::seconds(upload_.seconds) + settings_.client_grace;
    if (now < limit) return std::nullopt;
    std::cerr << "hilperf-mcu-sim: iPerf 2 did not end; its output:\n" << child_->output();
    (void)child_->stop(stop_grace);
  }
  const iperf2_run_text text = read_run_text(child_->output());
  silent_ = settings_.never_end;
  if (silent_) return std::nullopt;
  silent_ = true;  // one report per upload
  if (text.failure) {
    return zperf::error(fmt::format("{} upload failed ({})", proto, errno_of(*text.failure))) +
           "\n";
  }
  return zperf::upload_stats(upload_.protocol, zperf::upload_results(upload_, text));
}

zperf_download_run::zperf_download_run(zperf::download d, run_settings settings,
                                       clock::time_point now)
    : download_(d), settings_(std::move(settings)), start_(now) {
  stock_plan plan;
  plan.role = run_role::server;
  plan.protocol = download_.protocol;
  plan.port = download_.port;
  child_ = started(plan, settings_);
}

zperf_download_run::~zperf_download_run() {
  if (child_) (void)child_->stop(stop_grace);
}

bool zperf_download_run::failed_to_bind() const {
  return child_ && read_run_text(child_->output()).failure.has_value();
}

bool zperf_download_run::settled(clock::time_point now) const {
  if (!child_ || now >= start_ + bind_wait || failed_to_bind()) return true;
  return port_open(download_.protocol == run_protocol::tcp, download_.port);
}

std::vector<std::string> zperf_download_run::poll(clock::time_point now) {
  std::vector<std::string> pieces;
  if (gone_ || !child_) return pieces;
  if (settings_.error_line) {
    if (now < start_ + error_delay) return pieces;
    (void)child_->stop(stop_grace);
    child_.reset();
    gone_ = true;
    pieces.push_back(zperf::error(*settings_.error_line) + "\n");
    return pieces;
  }
  const iperf2_run_text text = read_run_text(child_->output());
  for (; started_ < text.connections.size(); ++started_) {
    pieces.push_back(zperf::session_started(download_.protocol));
  }
  const bool udp = download_.protocol == run_protocol::udp;
  const auto& figures = udp ? text.udp : text.own;
  for (; ended_ < figures.size() && ended_ < started_; ++ended_) {
    if (settings_.never_end) continue;
    for (auto& p : zperf::session_end(download_.protocol,
                                      zperf::session_results(figures[ended_], text.out_of_order))) {
      pieces.push_back(std::move(p));
    }
  }
  return pieces;
}

}  // namespace hil::mcu_sim
