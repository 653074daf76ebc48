#include "hil/report/html_report.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hil/report/frame_sweep_tables.hpp"
#include "hil/report/markup.hpp"
#include "hil/report/svg_plot.hpp"
#include "hil/report/tables.hpp"
#include "hil/report/y1564_table.hpp"

namespace hil::report {

namespace {

constexpr const char* style_sheet = R"css(
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f5f7fa; color: #1f2933;
       font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 24px 28px 40px; }
header h1 { margin: 0 0 6px; font-size: 24px; }
.meta { color: #52606d; margin: 0; }
.badges { margin: 14px 0 0; display: flex; gap: 8px; flex-wrap: wrap; }
.badge { padding: 3px 10px; border-radius: 12px; font-weight: 600; background: #e4e7eb; }
.badge.pass { background: #d6f5e3; color: #0f5132; }
.badge.fail { background: #fde2e1; color: #8a1c1c; }
section { background: #fff; border: 1px solid #e4e7eb; border-radius: 8px; margin-top: 20px;
          padding: 16px 20px 20px; box-shadow: 0 1px 2px rgba(31, 41, 51, 0.05); }
section h2 { margin: 0 0 12px; font-size: 18px; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 5px 8px; border-bottom: 1px solid #e4e7eb; text-align: left;
         vertical-align: top; }
th { background: #f0f4f8; font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.case { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px;
          white-space: nowrap; }
tr.fail td { background: #fff5f5; }
.verdict { display: inline-block; min-width: 44px; text-align: center; padding: 1px 8px;
           border-radius: 10px; font-weight: 700; font-size: 12px; }
.verdict.pass { background: #d6f5e3; color: #0f5132; }
.verdict.fail { background: #e12d39; color: #fff; }
.cause { color: #8a1c1c; font-size: 12.5px; }
.figure { margin: 14px 0 0; overflow-x: auto; }
.figure svg { display: block; max-width: 100%; height: auto; }
.note { color: #52606d; margin: 8px 0 0; }
footer { color: #7b8794; font-size: 12px; margin-top: 24px; text-align: center; }
)css";

constexpr const char* self_check = R"js(
(function () {
  var plots = document.querySelectorAll('svg.plot');
  var ok = 0, marks = 0;
  plots.forEach(function (svg) {
    var box = svg.getBoundingClientRect();
    var shapes = svg.querySelectorAll('polyline.series, rect.bar');
    var drawn = 0;
    shapes.forEach(function (s) { var b = s.getBBox(); if (b.width > 0 || b.height > 0) drawn++; });
    if (box.width > 0 && box.height > 0 && shapes.length > 0 && drawn === shapes.length) ok++;
    marks += drawn;
  });
  document.body.setAttribute('data-rendered',
                             'plots=' + plots.length + ' ok=' + ok + ' marks=' + marks);
})();
)js";

std::string verdict_cell(const record::case_record& r) {
  return fmt::format("<span class=\"verdict {}\">{}</span>",
                     r.verdict.pass || r.skipped ? "pass" : "fail", escape_html(verdict_word(r)));
}

std::string header_html(const std::vector<record::case_record>& records, const html_options& o) {
  const std::size_t failed = record::count_failed(records);
  const std::size_t not_measurable = record::count_not_measurable(records);
  std::string first, last;
  for (const auto& r : records) {
    if (r.time.empty()) continue;
    if (first.empty() || r.time < first) first = r.time;
    if (last.empty() || r.time > last) last = r.time;
  }
  std::string out = fmt::format("<header>\n<h1>{}</h1>\n", escape_html(o.title));
  if (!first.empty()) {
    out +=
        fmt::format("<p class=\"meta\">Run {} – {}</p>\n", escape_html(first), escape_html(last));
  }
  out += fmt::format(
      "<div class=\"badges\"><span class=\"badge\">{} checks</span>"
      "<span class=\"badge pass\">{} passed</span><span class=\"badge{}\">{} "
      "failed</span>{}</div>\n"
      "</header>\n",
      records.size(), records.size() - failed, failed > 0 ? " fail" : "", failed,
      not_measurable > 0
          ? fmt::format("<span class=\"badge\">{} not measurable on this bench</span>",
                        not_measurable)
          : "");
  return out;
}

std::string checks_html(const std::vector<record::case_record>& records) {
  std::string out =
      "<section id=\"checks\">\n<h2>Checks</h2>\n<table>\n<thead><tr><th>case</th>"
      "<th>verdict</th><th>measured</th><th>limit</th></tr></thead>\n<tbody>\n";
  for (const auto& r : records) {
    std::string measured = escape_html(measured_text(r));
    if (!r.verdict.pass && !r.skipped && !r.verdict.cause.empty()) {
      measured += "<div class=\"cause\">" + escape_html(r.verdict.cause) + "</div>";
    }
    out += fmt::format(
        "<tr class=\"{}\"><td class=\"case\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        r.verdict.pass || r.skipped ? "pass" : "fail", escape_html(r.case_name), verdict_cell(r),
        measured, escape_html(r.verdict.limit));
  }
  return out + "</tbody>\n</table>\n</section>\n";
}

std::string netperf_html(const std::vector<netperf_row>& rows) {
  const auto g = netperf_grid(rows);
  std::string out = "<section id=\"netperf\">\n<h2>netperf</h2>\n<table>\n<thead><tr>";
  for (std::size_t i = 0; i < g.header.size(); ++i) {
    const bool number = i != 0 && i + 1 != g.header.size();
    out += fmt::format("<th{}>{}</th>", number ? " class=\"num\"" : "", escape_html(g.header[i]));
  }
  out += "</tr></thead>\n<tbody>\n";
  for (std::size_t r = 0; r < g.rows.size(); ++r) {
    out += fmt::format("<tr class=\"{}\">", !rows[r].recorded || rows[r].pass ? "pass" : "fail");
    for (std::size_t i = 0; i < g.rows[r].size(); ++i) {
      const bool number = i != 0 && i + 1 != g.rows[r].size();
      out +=
          fmt::format("<td{}>{}</td>", number ? " class=\"num\"" : "", escape_html(g.rows[r][i]));
    }
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n</section>\n";
}

std::string figure(const std::string& svg);
std::string frames_chart(const std::vector<frame_result>& frames);

// A table of g, the first column text and the rest numbers, row i failed where failed[i].
std::string grid_html(const text_grid& g, const std::vector<bool>& failed) {
  std::string out = "<table>\n<thead><tr>";
  for (std::size_t i = 0; i < g.header.size(); ++i) {
    out += fmt::format("<th{}>{}</th>", i != 0 ? " class=\"num\"" : "", escape_html(g.header[i]));
  }
  out += "</tr></thead>\n<tbody>\n";
  for (std::size_t r = 0; r < g.rows.size(); ++r) {
    out += fmt::format("<tr class=\"{}\">", r < failed.size() && failed[r] ? "fail" : "pass");
    for (std::size_t i = 0; i < g.rows[r].size(); ++i) {
      out +=
          fmt::format("<td{}>{}</td>", i != 0 ? " class=\"num\"" : "", escape_html(g.rows[r][i]));
    }
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

// The RFC 2544 frame-size table (tables.hpp's frame_grid), rows failed where a case failed, and
// its chart.
std::string frames_html(const std::vector<frame_result>& frames) {
  const auto g = frame_grid(frames);
  std::vector<bool> failed;
  for (const auto& row : g.rows) {
    failed.push_back(std::ranges::any_of(frames, [&](const frame_result& f) {
      return std::to_string(f.frame) == row.front() && !f.pass;
    }));
  }
  return "<section id=\"rfc2544\">\n<h2>RFC 2544 throughput</h2>\n" + grid_html(g, failed) +
         figure(frames_chart(frames)) + "</section>\n";
}

// The frame loss table and its chart: loss against offered load, one line per frame size.
std::string losses_html(const std::vector<loss_curve>& losses) {
  line_chart c{"Frame loss rate against offered load",
               {"offered load (% of the media maximum)", false, true},
               {"frames lost (%)", false, true},
               {}};
  const bool several = several_ports(losses);
  for (const auto& curve : losses) {
    c.series.push_back({loss_label(curve, several), curve.points});
  }
  return "<section id=\"rfc2544-loss\">\n<h2>RFC 2544 frame loss rate</h2>\n" +
         grid_html(loss_grid(losses), {}) + figure(render_line_chart(c)) + "</section>\n";
}

// The back-to-back table, rows failed where a frame size's case failed.
std::string bursts_html(const std::vector<burst_row>& bursts) {
  const auto g = burst_grid(bursts);
  std::vector<bool> failed;
  for (const auto& row : g.rows) {
    failed.push_back(std::ranges::any_of(bursts, [&](const burst_row& b) {
      return std::to_string(b.frame) == row.front() && !b.pass;
    }));
  }
  return "<section id=\"rfc2544-burst\">\n<h2>RFC 2544 back-to-back</h2>\n" + grid_html(g, failed) +
         "</section>\n";
}

// The latency table, its note and its chart: p50 and p99 round trip against frame size.
std::string frame_latency_html(const std::vector<frame_latency_row>& rows) {
  const auto g = frame_latency_grid(rows);
  std::vector<bool> failed;
  for (const auto& row : g.rows) {
    failed.push_back(std::ranges::any_of(rows, [&](const frame_latency_row& r) {
      return std::to_string(r.frame) == row.front() && !r.pass;
    }));
  }
  line_chart c{"Round trip per frame size under load",
               {"frame (bytes)", true, false},
               {"round trip (ms)", false, true},
               {}};
  std::map<std::string, std::size_t> index;
  for (const auto& r : rows) {
    const std::string label = port_label(port_of(r));
    if (!index.contains(label)) {
      index[label] = c.series.size();
      c.series.push_back({label + ", p50", {}});
      c.series.push_back({label + ", p99", {}});
    }
    c.series[index[label]].points.emplace_back(r.frame, r.p50_ms);
    c.series[index[label] + 1].points.emplace_back(r.frame, r.p99_ms);
  }
  return "<section id=\"rfc2544-latency\">\n<h2>RFC 2544 latency</h2>\n" + grid_html(g, failed) +
         "<p class=\"note\">" + escape_html(frame_latency_note) + "</p>\n" +
         figure(render_line_chart(c)) + "</section>\n";
}

// The Y.1564 step table and its note, rows failed where a step failed.
std::string services_html(const std::vector<service_result>& services) {
  std::vector<bool> failed;
  for (const auto& s : services) {
    for (const auto& step : s.steps) failed.push_back(!step.pass);
  }
  return "<section id=\"y1564\">\n<h2>Y.1564 service configuration</h2>\n" +
         grid_html(y1564_grid(services), failed) + "<p class=\"note\">" + escape_html(y1564_note) +
         "</p>\n</section>\n";
}

// Throughput against frame size, each board and link rate beside its media maximum.
std::string frames_chart(const std::vector<frame_result>& frames) {
  line_chart c{"Zero-loss throughput per frame size",
               {"frame (bytes)", true, false},
               {"Mbit/s of frames", false, true},
               {}};
  std::map<std::string, std::size_t> index;
  for (const auto& f : frames) {
    const std::string label = port_label(port_of(f));
    if (!index.contains(label)) {
      index[label] = c.series.size();
      c.series.push_back({label + ", measured", {}});
      c.series.push_back({label + ", media maximum", {}});
    }
    const std::size_t i = index[label];
    if (const auto mbps = f.mbps()) c.series[i].points.emplace_back(f.frame, *mbps);
    c.series[i + 1].points.emplace_back(f.frame, f.media_max_fps * f.frame * 8 / 1e6);
  }
  return render_line_chart(c);
}

// One line chart per throughput group: the TCP cases together, each netperf stream test apart.
std::vector<std::string> throughput_charts(const report_model& m) {
  std::vector<std::string> groups;
  std::map<std::string, line_chart> charts;
  for (const auto& s : m.throughput) {
    if (!charts.contains(s.group)) {
      groups.push_back(s.group);
      // The TCP cases share a chart; each netperf stream test's iterations get one.
      const bool netperf =
          std::find(netperf_tests.begin(), netperf_tests.end(), s.group) != netperf_tests.end();
      charts[s.group] = line_chart{s.group + (netperf ? " iterations" : " cases"),
                                   {"interval", false, false, true},
                                   {"throughput (Mbit/s)", false, false},
                                   {}};
    }
    line_series line{s.label, {}};
    for (std::size_t i = 0; i < s.mbits.size(); ++i) {
      line.points.emplace_back(static_cast<double>(i + 1), s.mbits[i]);
    }
    charts[s.group].series.push_back(std::move(line));
  }
  std::vector<std::string> out;
  for (const auto& g : groups) out.push_back(render_line_chart(charts[g]));
  return out;
}

std::string latency_percentiles_chart(const std::vector<latency_set>& sets) {
  bar_chart c{"Latency percentiles", {"latency (µs)", false, true}, {}, {}};
  using field = std::optional<double> latency_figures::*;
  const std::vector<std::pair<const char*, field>> fields{{"p50", &latency_figures::p50},
                                                          {"p90", &latency_figures::p90},
                                                          {"p99", &latency_figures::p99},
                                                          {"p99.9", &latency_figures::p999},
                                                          {"max", &latency_figures::max}};
  double lo = 0, hi = 0;
  for (const auto& [name, member] : fields) c.series.push_back({name, {}});
  for (const auto& s : sets) {
    c.categories.push_back(s.label);
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const auto v = s.latency.*(fields[f].second);
      c.series[f].values.push_back(v);
      if (v && *v > 0) {
        lo = lo == 0 ? *v : std::min(lo, *v);
        hi = std::max(hi, *v);
      }
    }
  }
  // Loaded tails can be 100 times the idle median; a log axis keeps both readable.
  c.y.log = lo > 0 && hi / lo > 50;
  if (c.y.log) c.y.label = "latency (µs, log scale)";
  return render_bar_chart(c);
}

std::string latency_cdf_chart(const std::vector<latency_set>& sets) {
  line_chart c{"Latency CDF",
               {"latency (µs, log scale)", true, false},
               {"fraction of samples ≤ x", false, true},
               {}};
  for (const auto& s : sets) {
    if (!s.cdf.empty()) c.series.push_back({s.label, s.cdf});
  }
  return c.series.empty() ? std::string() : render_line_chart(c);
}

std::string datagrams_chart(const std::vector<mtu_datagrams>& tiers) {
  bar_chart c{"Datagrams sent and counted at each tier", {"datagrams", false, true}, {}, {}};
  bar_series sent{"sent (UdpZeroLoss)", {}};
  bar_series counted{"counted (DatagramCounts)", {}};
  for (const auto& t : tiers) {
    c.categories.push_back(fmt::format("MTU {}", t.mtu));
    sent.values.push_back(t.sent);
    counted.values.push_back(t.counted);
  }
  const auto has = [](const bar_series& s) {
    return std::any_of(s.values.begin(), s.values.end(),
                       [](const auto& v) { return v.has_value(); });
  };
  if (has(sent)) c.series.push_back(std::move(sent));
  if (has(counted)) c.series.push_back(std::move(counted));
  return render_bar_chart(c);
}

std::string figure(const std::string& svg) { return "<div class=\"figure\">\n" + svg + "</div>\n"; }

std::string load_note(const load_figures& l) {
  const auto part = [](const std::optional<double>& v, const char* what) {
    return v ? fmt::format("{} {}", format_number(*v), what) : std::string();
  };
  std::vector<std::string> parts;
  for (auto p : {l.streams ? fmt::format("{:g} streams", *l.streams) : std::string(),
                 part(l.up_mbps, "Mbit/s up"), part(l.down_mbps, "Mbit/s down")}) {
    if (!p.empty()) parts.push_back(std::move(p));
  }
  return fmt::format("<p class=\"note\">Loaded latency measured under {}.</p>\n",
                     fmt::join(parts, ", "));
}

std::string plots_html(const report_model& m) {
  std::string out;
  const auto throughput = throughput_charts(m);
  if (!throughput.empty()) {
    out += "<section id=\"throughput\">\n<h2>Throughput per interval</h2>\n";
    for (const auto& svg : throughput) out += figure(svg);
    out += "</section>\n";
  }
  if (!m.latency.empty()) {
    out += "<section id=\"latency\">\n<h2>Latency</h2>\n" +
           figure(latency_percentiles_chart(m.latency));
    if (const auto cdf = latency_cdf_chart(m.latency); !cdf.empty()) out += figure(cdf);
    if (m.load) out += load_note(*m.load);
    out += "</section>\n";
  }
  if (!m.datagrams.empty()) {
    out += "<section id=\"datagrams\">\n<h2>UDP datagrams per MTU tier</h2>\n" +
           figure(datagrams_chart(m.datagrams)) + "</section>\n";
  }
  return out;
}

// One chart per unit: each metric's value over the runs (x: run number, the last is this run).
std::string trends_html(const std::vector<trend_series>& trends) {
  if (trends.empty()) return {};
  std::map<std::string, line_chart> by_unit;
  for (const auto& t : trends) {
    auto& chart = by_unit[t.unit];
    if (chart.title.empty()) {
      chart = line_chart{"Trend (" + t.unit + ")",
                         {"run (oldest first; the last is this run)", false, false, true},
                         {t.unit, false, false},
                         {}};
    }
    line_series line{t.name, {}};
    for (std::size_t i = 0; i < t.values.size(); ++i) {
      line.points.emplace_back(static_cast<double>(i + 1), t.values[i]);
    }
    chart.series.push_back(std::move(line));
  }
  std::string out = "<section id=\"trends\">\n<h2>Trends over the nightly history</h2>\n";
  for (const auto& [unit, chart] : by_unit) out += figure(render_line_chart(chart));
  return out + "</section>\n";
}

}  // namespace

std::vector<std::string> render_charts(const report_model& model) {
  auto charts = throughput_charts(model);
  if (!model.latency.empty()) {
    charts.push_back(latency_percentiles_chart(model.latency));
    if (auto cdf = latency_cdf_chart(model.latency); !cdf.empty()) charts.push_back(std::move(cdf));
  }
  if (!model.datagrams.empty()) charts.push_back(datagrams_chart(model.datagrams));
  return charts;
}

std::string render_html(const std::vector<record::case_record>& records, const report_model& model,
                        const html_options& options) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n",
      escape_html(options.title), style_sheet);
  out += header_html(records, options);
  out += checks_html(records);
  if (!model.netperf.empty()) out += netperf_html(model.netperf);
  if (!model.frames.empty()) out += frames_html(model.frames);
  if (!model.losses.empty()) out += losses_html(model.losses);
  if (!model.bursts.empty()) out += bursts_html(model.bursts);
  if (!model.frame_latency.empty()) out += frame_latency_html(model.frame_latency);
  if (!model.services.empty()) out += services_html(model.services);
  out += plots_html(model);
  out += trends_html(options.trends);
  out += fmt::format("<footer>Generated by hilperf-report{}{}.</footer>\n</main>\n",
                     options.source.empty() ? "" : " from ", escape_html(options.source));
  out += fmt::format("<script>{}</script>\n</body>\n</html>\n", self_check);
  return out;
}

}  // namespace hil::report
