// Small SVG charts for reports, written out as text: line charts (linear or logarithmic axes) and
// grouped bar charts, with axes, ticks, grid, axis labels, a title and a legend. Output is an
// inline <svg> element for an HTML page: no scripts, no external references, no xmlns URL (HTML
// parsers put inline <svg> in the SVG namespace themselves). Labels are escaped here.
//
//   +--------------------------------------------------+
//   |  title                                           |
//   |  1000 +-------------------------+  ■ series 1    |
//   |       |   /\___/\__             |  ■ series 2    |
//   |     0 +-------------------------+                |
//   |        1     2     3     4   x label             |
//   +--------------------------------------------------+
//
// Plotted elements carry classes the page's self-check counts: polyline.series for each line,
// rect.bar for each bar.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hil::report {

// An axis: its label (with the unit), whether it is logarithmic (base 10; values <= 0 dropped), and
// whether a linear axis must include zero (bars always start at zero or at the log axis' bottom),
// and whether its values are whole numbers.
struct axis_spec {
  std::string label;
  bool log = false;
  bool zero_based = true;
  bool integer = false;  // a count (interval number): ticks only at whole numbers
};

// One line of a line chart: (x, y) points in data units, drawn in order.
struct line_series {
  std::string label;
  std::vector<std::pair<double, double>> points;
};

// A line chart; the x axis spans the data, the y axis too unless y.zero_based.
struct line_chart {
  std::string title;
  axis_spec x, y;
  std::vector<line_series> series;
};

// One series of a bar chart: a value per category, nullopt where it has none.
struct bar_series {
  std::string label;
  std::vector<std::optional<double>> values;
};

// A grouped bar chart: one group per category, one bar per series within each group.
struct bar_chart {
  std::string title;
  axis_spec y;
  std::vector<std::string> categories;
  std::vector<bar_series> series;
};

// Outer size of a chart in CSS pixels, legend included.
struct plot_frame {
  int width = 1000;
  int height = 300;
};

// The chart as an <svg class="plot"> element; "no data" in the plot area when nothing is plottable.
[[nodiscard]] std::string render_line_chart(const line_chart& chart, plot_frame frame = {});

// The chart as an <svg class="plot"> element; "no data" in the plot area when nothing is plottable.
[[nodiscard]] std::string render_bar_chart(const bar_chart& chart, plot_frame frame = {});

// About target "nice" tick values (1, 2 or 5 times a power of ten apart) covering [lo, hi].
[[nodiscard]] std::vector<double> linear_ticks(double lo, double hi, int target = 5);

// The powers of ten from the one at or below lo to the one at or above hi (lo > 0).
[[nodiscard]] std::vector<double> log_ticks(double lo, double hi);

// A tick label: 0.5, 20, 940, 12k, 1.5M.
[[nodiscard]] std::string tick_label(double value);

// The colour of the index-th series (a fixed, colour-blind-aware palette, repeating).
[[nodiscard]] std::string series_color(std::size_t index);

}  // namespace hil::report
