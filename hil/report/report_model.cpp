#include "hil/report/report_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "hil/measure/frame_path.hpp"

namespace hil::report {

namespace {

latency_figures latency_of(const record::latency_distribution& d) {
  const auto& s = d.summary;
  return latency_figures{static_cast<double>(s.count),
                         s.min_us,
                         s.mean_us,
                         s.p50_us,
                         s.p90_us,
                         s.p99_us,
                         s.p999_us,
                         s.max_us};
}

// The CDF without non-positive x (the axis is logarithmic), in rising order.
cdf_points cdf_of(const record::latency_distribution& d) {
  cdf_points out;
  for (const auto& p : d.cdf) {
    if (p.first > 0) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

netperf_row netperf_row_of(const record::case_record& r, const record::netperf_figures& f) {
  netperf_row row;
  row.test = f.test;
  row.recorded = true;
  row.pass = r.verdict.pass;
  row.unit = f.unit;
  row.iterations = f.iterations;
  row.average = f.average;
  row.ci_half_width = f.ci_half_width;
  row.confidence_level = f.confidence_level_percent;
  row.confidence_met = f.confidence_met;
  if (f.latency) {
    row.latency = latency_of(*f.latency);
    row.latency_cdf = cdf_of(*f.latency);
  }
  row.interval_mbps = f.interval_mbps;
  return row;
}

// The words of a record's frame path (report_model.hpp's port_id).
std::string path_of(const std::string& direction, int ip_version) {
  measure::frame_path p;
  // (The record reader accepts only the two words: an unknown one cannot reach here.)
  (void)measure::parse_direction(direction, p.direction);
  p.ip_version = ip_version;
  return measure::frame_path_words(p);
}

// The sweep's last measurement at each offered load, in the order the loads were first run.
loss_curve loss_curve_of(const record::case_record& r, const record::frame_loss_figures& f) {
  loss_curve c{static_cast<int>(f.port.frame_bytes),
               f.port.line_mbps,
               r.board,
               {},
               r.verdict.pass,
               f.tool_limited.empty() ? "" : "sender's limit",
               path_of(f.port.direction, f.port.ip_version)};
  for (const auto& t : f.trials) {
    // To 0.1 % of the maximum: the record's rates are rounded, the sweep's loads are not.
    const double load =
        f.port.media_max_fps > 0 ? std::round(1000 * t.offered_fps / f.port.media_max_fps) / 10 : 0;
    const double loss = t.sent > 0
                            ? 100.0 * static_cast<double>(t.sent - std::min(t.sent, t.received)) /
                                  static_cast<double>(t.sent)
                            : 0;
    // A trial whose sender fell short without (counted) loss measured the sender, not the load.
    if (!t.valid && loss <= f.accepted_loss_percent) continue;
    const auto same = std::ranges::find_if(
        c.points, [&](const auto& p) { return std::abs(p.first - load) < 1e-6; });
    if (same != c.points.end()) {
      same->second = loss;
    } else {
      c.points.emplace_back(load, loss);
    }
  }
  return c;
}

}  // namespace

std::string port_label(const port_id& p) {
  std::string label = p.board.empty() ? fmt::format("{:g} Mbit/s link", p.line_mbps)
                                      : fmt::format("{}, {:g} Mbit/s link", p.board, p.line_mbps);
  if (!p.path.empty()) label += ", " + p.path;
  return label;
}

std::string_view netperf_test_of(const record::case_record& r) {
  const auto* f = r.figures_as<record::netperf_figures>();
  if (f == nullptr) return {};
  for (const auto name : netperf_tests) {
    if (f->test == name) return name;
  }
  return {};
}

std::string short_case_name(std::string_view case_name) {
  const auto cut = case_name.find_last_of("/.");
  return std::string(cut == std::string_view::npos ? case_name : case_name.substr(cut + 1));
}

namespace {

// What build_model gathers from the records before it puts the tables and charts in order.
struct gathered {
  report_model m;
  std::map<std::string_view, netperf_row> netperf;  // by test, from netperf_tests
  std::map<int, mtu_datagrams> tiers;               // by MTU
  report_model load_part;  // latency under load: its CDFs go after the netperf ones
};

// The frame-throughput table's row of record r with figures f, with the note on a missing rate.
frame_result frame_row_of(const record::case_record& r, const record::frame_throughput_figures& f) {
  frame_result row{static_cast<int>(f.frame_bytes),
                   f.line_mbps,
                   r.board,
                   f.media_max_fps,
                   f.throughput_fps,
                   r.verdict.pass,
                   {},
                   path_of(f.direction, f.ip_version)};
  if (!f.tool_limited.empty()) {
    row.note = "sender's limit";
  } else if (f.sender_ceiling_fps) {
    row.note = "sender's cap";
  } else if (!f.throughput_fps) {
    row.note = "no loss-free rate";
  }
  return row;
}

// Adds the per-port figures of r (RFC 2544 and Y.1564 kinds) to their table; false for other kinds.
bool gather_port_figures(const record::case_record& r, report_model& m) {
  if (const auto* f = r.figures_as<record::frame_throughput_figures>()) {
    m.frames.push_back(frame_row_of(r, *f));
  } else if (const auto* fl = r.figures_as<record::frame_loss_figures>()) {
    m.losses.push_back(loss_curve_of(r, *fl));
  } else if (const auto* b = r.figures_as<record::back_to_back_figures>()) {
    const bool at_line = std::ranges::all_of(b->bursts, &record::burst_record::at_line_rate);
    m.bursts.push_back({static_cast<int>(b->port.frame_bytes), b->port.line_mbps, r.board,
                        b->port.media_max_fps, b->average_frames, b->spread_frames,
                        b->longest.size(), at_line, r.verdict.pass,
                        path_of(b->port.direction, b->port.ip_version)});
  } else if (const auto* lat = r.figures_as<record::frame_latency_figures>()) {
    const auto& rt = lat->round_trip.summary;
    m.frame_latency.push_back({static_cast<int>(lat->port.frame_bytes), lat->port.line_mbps,
                               r.board, lat->load_percent, rt.p50_us / 1000, rt.p99_us / 1000,
                               rt.max_us / 1000, lat->probes_sent, lat->probes_received,
                               r.verdict.pass, path_of(lat->port.direction, lat->port.ip_version)});
  } else if (const auto* y = r.figures_as<record::y1564_figures>()) {
    m.services.push_back({static_cast<int>(y->port.frame_bytes), y->port.line_mbps, r.board,
                          y->cir_mbps, y->steps, r.verdict.pass,
                          path_of(y->port.direction, y->port.ip_version)});
  } else {
    return false;
  }
  return true;
}

// Adds the figures of r to what g gathers for the table or chart of their kind; other kinds are
// left out.
void gather(const record::case_record& r, gathered& g) {
  if (gather_port_figures(r, g.m)) return;  // (figures hold one kind: the order is no priority)
  if (const auto test = netperf_test_of(r); !test.empty()) {
    g.netperf[test] = netperf_row_of(r, *r.figures_as<record::netperf_figures>());
  } else if (const auto* t = r.figures_as<record::throughput_figures>();
             t != nullptr && t->protocol == "tcp" && !t->interval_mbps.empty()) {
    g.m.throughput.push_back({"TCP throughput", short_case_name(r.case_name), t->interval_mbps});
  } else if (const auto* u = r.figures_as<record::udp_tier_figures>();
             u != nullptr && u->ip_version == 4 && r.verdict.check == "UdpZeroLoss") {
    auto& tier = g.tiers[u->mtu];
    tier.mtu = u->mtu;
    tier.sent = static_cast<double>(u->datagrams_sent);
    tier.lost = static_cast<double>(u->lost);
  } else if (const auto* d = r.figures_as<record::datagram_count_figures>()) {
    for (const auto& c : d->tiers) {
      g.tiers[c.mtu].mtu = c.mtu;
      g.tiers[c.mtu].counted = static_cast<double>(c.datagrams);
    }
  } else if (const auto* l = r.figures_as<record::latency_under_load_figures>()) {
    g.load_part.latency.push_back({"idle", latency_of(l->idle), cdf_of(l->idle)});
    g.load_part.latency.push_back({"loaded", latency_of(l->loaded), cdf_of(l->loaded)});
    g.load_part.load =
        load_figures{l->load_up_mbps, l->load_down_mbps, static_cast<double>(l->load_streams)};
  }
}

// One row per test of netperf_tests, in that order ("not run" for a test without a record), or
// none when no netperf test was recorded.
std::vector<netperf_row> netperf_table(const std::map<std::string_view, netperf_row>& netperf) {
  std::vector<netperf_row> rows;
  if (netperf.empty()) return rows;
  for (const auto name : netperf_tests) {
    const auto it = netperf.find(name);
    if (it != netperf.end()) {
      rows.push_back(it->second);
    } else {
      netperf_row missing;  // recorded stays false: the table says "not run"
      missing.test = std::string(name);
      rows.push_back(std::move(missing));
    }
  }
  return rows;
}

// Adds each netperf row's iterations to the throughput chart and its latency to the latency chart.
void chart_netperf(report_model& m) {
  for (const auto& row : m.netperf) {
    for (std::size_t i = 0; i < row.interval_mbps.size(); ++i) {
      m.throughput.push_back(
          {row.test, "iteration " + std::to_string(i + 1), row.interval_mbps[i]});
    }
    if (row.latency) m.latency.push_back({row.test, *row.latency, row.latency_cdf});
  }
}

// Orders each per-port table by board, line rate, path and frame size; records of one port keep
// their order.
void sort_by_port(report_model& m) {
  const auto by_port = [](const auto& a, const auto& b) {
    return std::tie(a.board, a.line_mbps, a.path, a.frame) <
           std::tie(b.board, b.line_mbps, b.path, b.frame);
  };
  std::stable_sort(m.frames.begin(), m.frames.end(), by_port);
  std::stable_sort(m.losses.begin(), m.losses.end(), by_port);
  std::stable_sort(m.bursts.begin(), m.bursts.end(), by_port);
  std::stable_sort(m.frame_latency.begin(), m.frame_latency.end(), by_port);
  std::stable_sort(m.services.begin(), m.services.end(), by_port);
}

}  // namespace

report_model build_model(const std::vector<record::case_record>& records) {
  gathered g;
  for (const auto& r : records) gather(r, g);
  report_model& m = g.m;
  m.netperf = netperf_table(g.netperf);
  chart_netperf(m);
  m.latency.insert(m.latency.end(), g.load_part.latency.begin(), g.load_part.latency.end());
  m.load = g.load_part.load;
  for (const auto& [mtu, t] : g.tiers) m.datagrams.push_back(t);
  sort_by_port(m);
  return std::move(g.m);
}

}  // namespace hil::report
