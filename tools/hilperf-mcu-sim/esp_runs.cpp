#include "esp_runs.hpp"

#include <fmt/format.h>

#include <iostream>

#include "esp_report.hpp"
#include "hil/sys/process.hpp"
#include "iperf2_text.hpp"
#include "socket_table.hpp"
#include "stock_iperf.hpp"

namespace hil::mcu_sim {
namespace {

using namespace std::chrono_literals;

constexpr auto error_delay = 1s;
constexpr auto stop_grace = 1000ms;
constexpr auto bind_wait = 5s;
constexpr auto accept_timeout = 5s;  // IPERF_SOCKET_ACCEPT_TIMEOUT
// How long past its -t a server waits for iPerf 2's count of the session (the client's end).
constexpr auto count_wait = 3s;

std::string lines_of(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + '\n';
  return out;
}

// The errno lwIP would give for what stock iPerf 2 said (lwIP's numbers are Linux's here).
int errno_of(const std::string& failure) {
  if (failure.find("refused") != std::string::npos) return 111;
  if (failure.find("unreachable") != std::string::npos) return 113;
  if (failure.find("timed out") != std::string::npos) return 110;
  if (failure.find("in use") != std::string::npos) return 98;
  return 5;
}

stock_plan plan_of(const esp::run& r, double rate_factor) {
  stock_plan plan;
  plan.role = r.role;
  plan.protocol = r.protocol;
  plan.peer = r.peer;
  plan.port = r.port;
  plan.seconds = r.time;
  plan.no_udp_fin = true;  // no end-of-test datagram exchange (the wire carries a sequence only)
  if (r.role == run_role::client) {
    const bool udp = r.protocol == run_protocol::udp;
    plan.length = r.length > 0 ? r.length : udp ? 1470 : 2880;  // the Kconfig defaults
    if (r.interval < r.time) plan.interval = r.interval;
    if (udp) {
      // No -b: as fast as it can (a rate far beyond any MCU's link stands for it).
      const double bps = r.bits_per_second > 0 ? static_cast<double>(r.bits_per_second) : 1e9;
      plan.bits_per_second = static_cast<std::uint64_t>(bps * rate_factor);
    }
  }
  return plan;
}

}  // namespace

esp_instance::esp_instance(int id, esp::run r, run_settings settings, clock::time_point now)
    : id_(id), run_(std::move(r)), settings_(std::move(settings)), start_(now) {
  if (settings_.error_line) return;
  child_ = std::make_unique<sys::child_process>(
      stock_argv(plan_of(run_, settings_.rate_factor), settings_.iperf_program));
  std::cerr << "hilperf-mcu-sim: started " << sys::quote_command(child_->argv()) << std::endl;
}

esp_instance::~esp_instance() { end(); }

void esp_instance::end() noexcept {
  if (child_) (void)child_->stop(stop_grace);
  child_.reset();
}

void esp_instance::stop() noexcept {
  if (settings_.never_end) return;
  end();
  over_ = true;
}

std::string esp_instance::failed(std::uint64_t uptime_ms, const std::string& socket_line,
                                 char level) {
  end();
  over_ = true;
  std::string out;
  const std::string tag = esp::instance_tag(id_);
  if (!socket_line.empty()) out += esp::log_line(level, uptime_ms, tag, socket_line) + '\n';
  return out + esp::log_line('E', uptime_ms, tag, esp::traffic_task_error(run_)) + '\n';
}

std::string esp_instance::poll(clock::time_point now, std::uint64_t uptime_ms) {
  if (over_) return {};
  if (settings_.error_line) {
    if (now < start_ + error_delay || settings_.never_end) return {};
    return failed(uptime_ms, *settings_.error_line);
  }
  if (!child_) return {};
  return run_.role == run_role::client ? poll_client(now, uptime_ms) : poll_server(now, uptime_ms);
}

std::string esp_instance::poll_client(clock::time_point now, std::uint64_t uptime_ms) {
  if (!child_->wait(0ms)) {
    if (now < start_ + std::chrono::seconds(run_.time) + settings_.client_grace) return {};
    std::cerr << "hilperf-mcu-sim: iPerf 2 did not end; its output:\n" << child_->output();
    (void)child_->stop(stop_grace);
  }
  const iperf2_run_text text = read_run_text(child_->output());
  const std::string tag = esp::instance_tag(id_);
  if (text.failure) {
    const std::string why = fmt::format(
        "iperf_start_and_run_tcp_client(415): cannot start TCP client: socket is unable to "
        "connect - errno {}",
        errno_of(*text.failure));
    end();
    over_ = true;
    return esp::log_line('E', uptime_ms, tag, why) + '\n' +
           esp::log_line('E', uptime_ms, tag, esp::traffic_task_error(run_)) + '\n';
  }
  if (settings_.never_end) {
    end();  // the traffic is over; the report never comes and the instance stays
    return {};
  }
  std::string out;
  if (!text.connections.empty()) out = lines_of(esp::connect_lines(id_, run_, text.connections[0]));
  out += lines_of(esp::traffic_lines(id_, run_, text));
  end();
  over_ = true;
  return out;
}

std::string esp_instance::poll_server(clock::time_point now, std::uint64_t uptime_ms) {
  const bool udp = run_.protocol == run_protocol::udp;
  const std::string tag = esp::instance_tag(id_);
  std::string out;
  if (!created_) {
    const bool bound = port_open(!udp, run_.port);
    if (!bound && now < start_ + bind_wait) return {};
    created_ = true;
    if (!bound) {
      return failed(uptime_ms,
                    fmt::format("iperf_start_and_run_{0}_server({1}): cannot start {2} server: "
                                "socket is unable to bind - errno 98",
                                udp ? "udp" : "tcp", udp ? 487 : 322, udp ? "UDP" : "TCP"),
                    'E');
    }
    out += esp::log_line('I', uptime_ms, tag,
                         udp ? "[UDP Server] Socket created" : "[TCP Server] Socket created") +
           '\n';
  }
  const iperf2_run_text text = read_run_text(child_->output());
  if (!first_) {
    if (!text.connections.empty()) {
      first_ = now;
      return out + lines_of(esp::connect_lines(id_, run_, text.connections[0]));
    }
    if (!udp && now >= start_ + accept_timeout) {
      return out + failed(uptime_ms,
                          "iperf_start_and_run_tcp_server(346): cannot start TCP server: socket "
                          "is unable to accept connection - errno 11",
                          'E');
    }
    const auto idle = settings_.udp_server_idle;
    if (udp && idle.count() > 0 && now >= start_ + idle) {
      return out + failed(uptime_ms, "recvfrom error, error code: 11, reason: No more processes");
    }
    return out;
  }
  const auto due = *first_ + std::chrono::seconds(run_.time);
  const bool counted = !(udp ? text.udp : text.own).empty();
  if (now < due || (!counted && now < due + count_wait)) return out;
  if (settings_.never_end) {
    end();
    return out;
  }
  out += lines_of(esp::traffic_lines(id_, run_, text));
  end();
  over_ = true;
  return out;
}

}  // namespace hil::mcu_sim
