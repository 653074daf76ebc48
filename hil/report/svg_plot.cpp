#include "hil/report/svg_plot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hil/report/markup.hpp"

namespace hil::report {

namespace {

constexpr double margin_left = 68;
constexpr double margin_top = 40;
constexpr double margin_bottom = 50;
constexpr double legend_width = 200;
constexpr double legend_row = 18;
constexpr std::size_t legend_chars = 25;

// The pixel rectangle data is drawn in.
struct plot_area {
  double left, right, top, bottom;
};

// An axis's data range, already widened to its first and last tick.
struct axis_range {
  double lo = 0, hi = 1;
  bool log = false;
  std::vector<double> ticks;
};

// Maps a data value to a pixel between px_lo (at range.lo) and px_hi (at range.hi).
double to_pixel(const axis_range& r, double v, double px_lo, double px_hi) {
  const double t = r.log
                       ? (std::log10(v) - std::log10(r.lo)) / (std::log10(r.hi) - std::log10(r.lo))
                       : (v - r.lo) / (r.hi - r.lo);
  return px_lo + t * (px_hi - px_lo);
}

// The axis covering [lo, hi]; a linear axis includes zero when from_zero and the data is positive.
axis_range make_range(double lo, double hi, bool log, bool from_zero, bool integer = false) {
  axis_range r;
  r.log = log;
  if (log) {
    r.ticks = log_ticks(lo, hi);
  } else {
    if (from_zero && lo > 0) lo = 0;
    if (from_zero && hi < 0) hi = 0;
    if (integer) {
      lo = std::floor(lo);
      hi = std::max(std::ceil(hi), lo + 1);
    }
    if (hi - lo < 1e-12) hi = lo + (lo == 0 ? 1 : std::fabs(lo) * 0.1);
    r.ticks = linear_ticks(lo, hi);
    if (integer) {
      std::erase_if(r.ticks, [](double t) { return t != std::floor(t); });
      if (r.ticks.size() < 2) r.ticks = {lo, hi};
    }
  }
  r.lo = r.ticks.front();
  r.hi = r.ticks.back();
  return r;
}

std::string px(double v) { return fmt::format("{:.1f}", v); }

std::string truncated(const std::string& label) {
  return label.size() <= legend_chars ? label : label.substr(0, legend_chars - 1) + "…";
}

// <svg> start tag, tooltip title, background and heading. Height grows to fit the legend.
std::string open_svg(const std::string& title, plot_frame& frame, std::size_t legend_entries) {
  const double needed = margin_top + static_cast<double>(legend_entries) * legend_row + 20;
  frame.height = std::max(frame.height, static_cast<int>(std::ceil(needed)));
  std::string out = fmt::format(
      "<svg class=\"plot\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-label=\"{2}\" font-family=\"system-ui, sans-serif\" font-size=\"12\">\n"
      "<title>{2}</title>\n<rect width=\"{0}\" height=\"{1}\" fill=\"#ffffff\"/>\n"
      "<text x=\"{3}\" y=\"22\" font-size=\"15\" font-weight=\"600\" fill=\"#1f2933\">{2}</text>\n",
      frame.width, frame.height, escape_html(title), px(margin_left));
  return out;
}

plot_area area_of(const plot_frame& frame) {
  return {margin_left, frame.width - legend_width - 16, margin_top, frame.height - margin_bottom};
}

// Horizontal grid lines, tick labels and the rotated axis label.
void draw_y_axis(std::string& out, const plot_area& a, const axis_range& r,
                 const std::string& label) {
  for (const double t : r.ticks) {
    const double y = to_pixel(r, t, a.bottom, a.top);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#e4e7eb\"/>\n"
        "<text x=\"{3}\" y=\"{4}\" text-anchor=\"end\" fill=\"#52606d\">{5}</text>\n",
        px(a.left), px(a.right), px(y), px(a.left - 6), px(y + 4), tick_label(t));
  }
  const double mid = (a.top + a.bottom) / 2;
  out += fmt::format(
      "<text x=\"16\" y=\"{0}\" transform=\"rotate(-90 16 {0})\" text-anchor=\"middle\" "
      "fill=\"#323f4b\">{1}</text>\n",
      px(mid), escape_html(label));
}

// Vertical grid lines and tick labels of a numeric x axis, and its label.
void draw_x_axis(std::string& out, const plot_area& a, const axis_range& r,
                 const std::string& label) {
  for (const double t : r.ticks) {
    const double x = to_pixel(r, t, a.left, a.right);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#e4e7eb\"/>\n"
        "<text x=\"{0}\" y=\"{3}\" text-anchor=\"middle\" fill=\"#52606d\">{4}</text>\n",
        px(x), px(a.top), px(a.bottom), px(a.bottom + 16), tick_label(t));
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#323f4b\">{}</text>\n",
                     px((a.left + a.right) / 2), px(a.bottom + 38), escape_html(label));
}

// The plot area's frame (drawn after the grid so the axes stay on top).
void draw_frame(std::string& out, const plot_area& a) {
  out += fmt::format(
      "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
      "stroke=\"#9aa5b1\"/>\n",
      px(a.left), px(a.top), px(a.right - a.left), px(a.bottom - a.top));
}

void draw_legend(std::string& out, const plot_area& a, const std::vector<std::string>& labels) {
  const double x = a.right + 16;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const double y = a.top + static_cast<double>(i) * legend_row;
    out += fmt::format(
        "<g class=\"legend-entry\"><rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" rx=\"2\" "
        "fill=\"{}\"/><text x=\"{}\" y=\"{}\" fill=\"#323f4b\">{}<title>{}</title></text></g>\n",
        px(x), px(y), series_color(i), px(x + 18), px(y + 10), escape_html(truncated(labels[i])),
        escape_html(labels[i]));
  }
}

void draw_no_data(std::string& out, const plot_area& a) {
  out += fmt::format(
      "<text class=\"no-data\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#7b8794\">"
      "no data</text>\n",
      px((a.left + a.right) / 2), px((a.top + a.bottom) / 2));
}

bool plottable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

// The line chart's points that can be drawn on its axes, per series.
std::vector<line_series> plottable_series(const line_chart& c) {
  std::vector<line_series> out;
  for (const auto& s : c.series) {
    line_series kept{s.label, {}};
    for (const auto& [x, y] : s.points) {
      if (plottable(x, c.x.log) && plottable(y, c.y.log)) kept.points.emplace_back(x, y);
    }
    out.push_back(std::move(kept));
  }
  return out;
}

void draw_line(std::string& out, const line_series& s, std::size_t index, const plot_area& a,
               const axis_range& xr, const axis_range& yr) {
  std::string points;
  for (const auto& [x, y] : s.points) {
    if (!points.empty()) points += ' ';
    points += px(to_pixel(xr, x, a.left, a.right)) + "," + px(to_pixel(yr, y, a.bottom, a.top));
  }
  const std::string color = series_color(index);
  out += fmt::format(
      "<polyline class=\"series\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" "
      "stroke-linejoin=\"round\" points=\"{}\"><title>{}</title></polyline>\n",
      color, points, escape_html(s.label));
  if (s.points.size() > 40) return;  // markers would merge into the line
  for (const auto& [x, y] : s.points) {
    out += fmt::format("<circle class=\"marker\" cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"{}\"/>\n",
                       px(to_pixel(xr, x, a.left, a.right)), px(to_pixel(yr, y, a.bottom, a.top)),
                       color);
  }
}

}  // namespace

std::vector<double> linear_ticks(double lo, double hi, int target) {
  if (!(hi > lo)) return {lo};
  const double raw = (hi - lo) / std::max(target, 1);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * power;
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * power >= raw) {
      step = m * power;
      break;
    }
  }
  std::vector<double> ticks;
  const double first = std::floor(lo / step + 1e-9) * step;
  for (double t = first; t < hi + step * (1 - 1e-9); t += step) {
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  }
  return ticks;
}

std::vector<double> log_ticks(double lo, double hi) {
  const int first = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  int last = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  if (last <= first) last = first + 1;
  std::vector<double> ticks;
  for (int e = first; e <= last; ++e) ticks.push_back(std::pow(10.0, e));
  return ticks;
}

std::string tick_label(double value) {
  const double size = std::fabs(value);
  if (size >= 1e6) return fmt::format("{:.4g}M", value / 1e6);
  if (size >= 1e4) return fmt::format("{:.4g}k", value / 1e3);
  return fmt::format("{:.4g}", value);
}

std::string series_color(std::size_t index) {
  // Okabe–Ito, then Tableau, both chosen to stay apart for common colour-vision deficiencies.
  static constexpr std::array<const char*, 10> palette{"#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                                       "#d55e00", "#56b4e9", "#8c564b", "#f0e442",
                                                       "#7f7f7f", "#17becf"};
  return palette[index % palette.size()];
}

std::string render_line_chart(const line_chart& chart, plot_frame frame) {
  const auto series = plottable_series(chart);
  std::vector<std::string> labels;
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
  for (const auto& s : series) {
    labels.push_back(s.label);
    for (const auto& [x, y] : s.points) {
      x_lo = std::min(x_lo, x);
      x_hi = std::max(x_hi, x);
      y_lo = std::min(y_lo, y);
      y_hi = std::max(y_hi, y);
    }
  }
  std::string out = open_svg(chart.title, frame, labels.size());
  const plot_area a = area_of(frame);
  if (!std::isfinite(x_lo)) {
    draw_frame(out, a);
    draw_no_data(out, a);
    return out + "</svg>\n";
  }
  const auto xr = make_range(x_lo, x_hi, chart.x.log, false, chart.x.integer);
  const auto yr = make_range(y_lo, y_hi, chart.y.log, chart.y.zero_based);
  draw_y_axis(out, a, yr, chart.y.label);
  draw_x_axis(out, a, xr, chart.x.label);
  draw_frame(out, a);
  for (std::size_t i = 0; i < series.size(); ++i) draw_line(out, series[i], i, a, xr, yr);
  draw_legend(out, a, labels);
  return out + "</svg>\n";
}

std::string render_bar_chart(const bar_chart& chart, plot_frame frame) {
  std::vector<std::string> labels;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& s : chart.series) {
    labels.push_back(s.label);
    for (const auto& v : s.values) {
      if (v && plottable(*v, chart.y.log)) {
        lo = std::min(lo, *v);
        hi = std::max(hi, *v);
      }
    }
  }
  std::string out = open_svg(chart.title, frame, labels.size());
  const plot_area a = area_of(frame);
  if (!std::isfinite(lo) || chart.categories.empty()) {
    draw_frame(out, a);
    draw_no_data(out, a);
    return out + "</svg>\n";
  }
  const auto yr = make_range(lo, hi, chart.y.log, true);
  draw_y_axis(out, a, yr, chart.y.label);
  draw_frame(out, a);
  const double group = (a.right - a.left) / static_cast<double>(chart.categories.size());
  const double bar = group * 0.8 / static_cast<double>(std::max<std::size_t>(labels.size(), 1));
  for (std::size_t c = 0; c < chart.categories.size(); ++c) {
    const double group_left = a.left + group * static_cast<double>(c);
    out += fmt::format(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#323f4b\">{}</text>\n",
        px(group_left + group / 2), px(a.bottom + 18), escape_html(chart.categories[c]));
    for (std::size_t s = 0; s < chart.series.size(); ++s) {
      const auto& values = chart.series[s].values;
      if (c >= values.size() || !values[c] || !plottable(*values[c], chart.y.log)) continue;
      const double v = *values[c];
      const double x = group_left + group * 0.1 + bar * static_cast<double>(s);
      const double top = to_pixel(yr, v, a.bottom, a.top);
      const double base =
          to_pixel(yr, yr.log ? yr.lo : std::clamp(0.0, yr.lo, yr.hi), a.bottom, a.top);
      out += fmt::format(
          "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">"
          "<title>{}, {}: {}</title></rect>\n",
          px(x + 1), px(std::min(top, base)), px(std::max(bar - 2, 1.0)),
          px(std::max(std::fabs(base - top), 0.5)), series_color(s),
          escape_html(chart.series[s].label), escape_html(chart.categories[c]), tick_label(v));
      if (bar >= 30) {
        out += fmt::format(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\" fill=\"#323f4b\">{}"
            "</text>\n",
            px(x + bar / 2), px(std::min(top, base) - 4), tick_label(v));
      }
    }
  }
  draw_legend(out, a, labels);
  return out + "</svg>\n";
}

}  // namespace hil::report
