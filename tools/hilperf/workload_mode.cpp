#include "workload_mode.hpp"

#include <iostream>

#include <fmt/format.h>

#include "hil/report/workload_report.hpp"

int run_workload_mode(const hil::session::workload_options& o, bool json) {
  const auto name = hil::measure::workload_name(o.spec.kind);
  if (!json) {
    std::cout << fmt::format(
        "{} to {} port {}: {} B request, {} B response, {:.1f} s{}\n", name, o.host, o.port,
        o.spec.request_size, o.spec.response_size,
        static_cast<double>(o.spec.duration.count()) / 1000,
        o.spec.load_streams > 0
            ? fmt::format(", under load ({} TCP streams each way)", o.spec.load_streams)
            : std::string());
  }
  try {
    const auto r = hil::session::run_workload(o);
    if (json) {
      std::cout << hil::report::to_json(r).dump(2) << '\n';
    } else {
      std::cout << hil::report::format_rr_summary(r) << "hilperf Done.\n";
    }
    return 0;
  } catch (const hil::session::extension_unsupported& e) {
    std::cerr << "hilperf: " << e.what() << '\n';
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "hilperf: error - " << e.what() << '\n';
    return 1;
  }
}
