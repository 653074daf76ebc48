#include "hil/sys/cpu_pressure.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "hil/sys/proc_text.hpp"
#include "hil/sys/process_list.hpp"

namespace hil::sys {
namespace {

// The whole of a small /proc file; empty when it cannot be read.
std::string slurp(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every process's stat, keyed by pid; processes that vanish while being read are left out.
std::map<pid_t, proc_stat> read_processes() {
  std::map<pid_t, proc_stat> out;
  for (const pid_t pid : process_ids()) {
    const std::string text = slurp(fmt::format("/proc/{}/stat", pid).c_str());
    if (auto s = parse_proc_stat(text)) out.emplace(pid, std::move(*s));
  }
  return out;
}

}  // namespace

double bench_pressure::others_cpu_percent() const {
  return window_seconds > 0 ? 100.0 * others_cpu_seconds / window_seconds : 0.0;
}

std::string bench_pressure::describe() const {
  std::string s =
      fmt::format("{:.1f} % CPU pressure, other processes {:.0f} % of a core over {:.1f} s ({})",
                  some_percent, others_cpu_percent(), window_seconds, source);
  if (busiest.empty()) return s + "; no other process used the CPU";
  s += "; busiest other processes:";
  for (std::size_t i = 0; i < busiest.size(); ++i) {
    s += fmt::format("{} {}{} {:.2f} s", i == 0 ? "" : ",", busiest[i].name,
                     busiest[i].kernel_thread ? " [kernel]" : "", busiest[i].cpu_seconds);
  }
  return s;
}

std::optional<std::uint64_t> parse_psi_some_total_us(std::string_view text) {
  // "some avg10=0.00 avg60=0.00 avg300=0.00 total=12345"
  if (text.substr(0, 5) != "some ") return std::nullopt;
  const std::string_view line = text.substr(0, text.find('\n'));
  const auto at = line.find("total=");
  if (at == std::string_view::npos) return std::nullopt;
  return leading_number(line.substr(at + 6));
}

std::optional<schedstat_wait> parse_schedstat(std::string_view text) {
  schedstat_wait out;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.substr(0, 3) != "cpu") continue;
    // cpuN yld_count 0 sched_count sched_goidle ttwu_count ttwu_local run_ns wait_ns timeslices
    int field = 0;
    std::optional<std::uint64_t> wait;
    while (!line.empty()) {
      const auto sp = line.find(' ');
      const std::string_view word = line.substr(0, sp);
      if (field == 8) wait = leading_number(word);
      ++field;
      line = sp == std::string_view::npos ? std::string_view() : line.substr(sp + 1);
    }
    if (!wait) return std::nullopt;
    out.wait_ns += *wait;
    ++out.cpus;
  }
  if (out.cpus == 0) return std::nullopt;
  return out;
}

std::optional<proc_stat> parse_proc_stat(std::string_view line) {
  // "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime"
  const auto open = line.find('(');
  const auto close = line.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return std::nullopt;
  }
  proc_stat out;
  out.name = std::string(line.substr(open + 1, close - open - 1));
  std::string_view rest = line.substr(close + 1);
  // After ") ": state is field 3, ppid 4, flags 9; utime and stime are fields 14 and 15.
  constexpr std::uint64_t pf_kthread = 0x00200000;
  std::uint64_t ticks = 0;
  int field = 2;
  int found = 0;
  while (!rest.empty() && found < 2) {
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    const auto sp = rest.find(' ');
    const std::string_view word = rest.substr(0, sp);
    ++field;
    if (field == 4 || field == 9 || field == 14 || field == 15) {
      const auto v = leading_number(word);
      if (!v) return std::nullopt;
      if (field == 4) out.ppid = static_cast<pid_t>(*v);
      if (field == 9) out.kernel_thread = (*v & pf_kthread) != 0;
      if (field >= 14) {
        ticks += *v;
        ++found;
      }
    }
    rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
  }
  if (found != 2) return std::nullopt;
  out.cpu_ticks = ticks;
  return out;
}

std::vector<process_cpu> cpu_growth(const std::map<pid_t, proc_stat>& before,
                                    const std::map<pid_t, proc_stat>& after, double tick_seconds) {
  std::vector<process_cpu> out;
  for (const auto& [pid, now] : after) {
    const auto was = before.find(pid);
    // A pid reused by another program within the window counts from zero.
    const std::uint64_t base = was != before.end() && was->second.name == now.name &&
                                       was->second.cpu_ticks <= now.cpu_ticks
                                   ? was->second.cpu_ticks
                                   : 0;
    if (now.cpu_ticks <= base) continue;
    out.push_back({pid, now.name, static_cast<double>(now.cpu_ticks - base) * tick_seconds,
                   now.kernel_thread});
  }
  std::sort(out.begin(), out.end(), [](const process_cpu& a, const process_cpu& b) {
    return a.cpu_seconds > b.cpu_seconds;
  });
  return out;
}

cpu_pressure_meter::cpu_pressure_meter() : start_(take()) {}

cpu_pressure_meter::snapshot cpu_pressure_meter::take() {
  snapshot s;
  s.processes = read_processes();
  s.psi_some_us = parse_psi_some_total_us(slurp("/proc/pressure/cpu"));
  if (!s.psi_some_us) s.schedstat = parse_schedstat(slurp("/proc/schedstat"));
  s.at = std::chrono::steady_clock::now();
  return s;
}

bench_pressure cpu_pressure_meter::finish(const std::vector<std::string>& bench_programs) const {
  const snapshot end = take();
  bench_pressure p;
  const double window_us = std::chrono::duration<double, std::micro>(end.at - start_.at).count();
  p.window_seconds = window_us / 1e6;
  if (start_.psi_some_us && end.psi_some_us && window_us > 0) {
    p.source = "psi";
    p.some_percent =
        100.0 * static_cast<double>(*end.psi_some_us - *start_.psi_some_us) / window_us;
  } else if (start_.schedstat && end.schedstat && window_us > 0 && end.schedstat->cpus > 0) {
    p.source = "schedstat";
    p.some_percent = 100.0 *
                     static_cast<double>(end.schedstat->wait_ns - start_.schedstat->wait_ns) / 1e3 /
                     (window_us * end.schedstat->cpus);
  } else {
    p.source = "none";
  }
  p.some_percent = std::clamp(p.some_percent, 0.0, 100.0);
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  const pid_t self = ::getpid();
  auto growth =
      cpu_growth(start_.processes, end.processes,
                 1.0 / static_cast<double>(ticks_per_second > 0 ? ticks_per_second : 100));
  std::erase_if(growth, [&](const process_cpu& g) {
    const auto it = end.processes.find(g.pid);
    const bool ours =
        g.pid == self || (it != end.processes.end() && it->second.ppid == self) ||
        std::find(bench_programs.begin(), bench_programs.end(), g.name) != bench_programs.end();
    if (ours) p.bench_cpu_seconds += g.cpu_seconds;
    return ours;
  });
  for (const auto& g : growth) p.others_cpu_seconds += g.kernel_thread ? 0.0 : g.cpu_seconds;
  if (growth.size() > 3) growth.resize(3);
  p.busiest = std::move(growth);
  return p;
}

}  // namespace hil::sys
