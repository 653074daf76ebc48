// One self-contained HTML page for a hil run: inline CSS, inline SVG charts and a tiny inline
// self-check script; no URLs, no external scripts, fonts or images, so it can be archived as a CI
// artifact and opened offline. Sections (each left out when the run has no data for it):
//   summary of all checks (pass/fail coloured) · netperf table · per-interval throughput ·
//   latency percentiles and CDF · datagram counts per MTU tier · trends over the nightly history.
// Every string from the results file is HTML-escaped. The self-check script writes
// "plots=<svg count> ok=<svgs with size and every mark drawn> marks=<drawn marks>" into
// <body data-rendered>, for the headless-browser test.
#pragma once

#include <string>
#include <vector>

#include "hil/report/history.hpp"
#include "hil/report/report_model.hpp"
#include "hil/report/results_file.hpp"

namespace hil::report {

// What the page says about itself.
struct html_options {
  std::string title = "hilperf report";  // <title> and heading
  std::string source;                    // the results file's name, shown in the footer
  std::vector<trend_series> trends;      // with --history: one chart per unit, a line per metric
};

// The whole page. Pure: same inputs, same bytes.
[[nodiscard]] std::string render_html(const std::vector<record::case_record>& records,
                                      const report_model& model, const html_options& options);

// The page's charts alone, in page order (one <svg class="plot"> each); for tests and reuse.
[[nodiscard]] std::vector<std::string> render_charts(const report_model& model);

}  // namespace hil::report
