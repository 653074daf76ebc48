#include "hil/record/headline.hpp"

namespace hil::record {

std::vector<headline_figure> headline_figures(const case_record& r) {
  std::vector<headline_figure> out;
  if (r.skipped) return out;
  if (const auto* t = r.figures_as<throughput_figures>()) {
    if (t->out_mbps || t->in_mbps) {
      if (t->out_mbps) out.push_back({r.case_name + " out", "Mbit/s", *t->out_mbps, true});
      if (t->in_mbps) out.push_back({r.case_name + " in", "Mbit/s", *t->in_mbps, true});
    } else {
      const char* what = t->streams > 1 ? " sum" : " goodput";
      out.push_back({r.case_name + what, "Mbit/s", t->goodput_mbps, true});
    }
  } else if (const auto* n = r.figures_as<netperf_figures>(); n != nullptr && n->average) {
    out.push_back({"NetperfSuite " + n->test + " average", n->unit, *n->average, true});
  } else if (const auto* l = r.figures_as<latency_under_load_figures>()) {
    out.push_back({r.case_name + " loaded p99", "us", l->loaded.summary.p99_us, false});
  } else if (const auto* f = r.figures_as<frame_throughput_figures>();
             f != nullptr && f->throughput_fps) {
    out.push_back({r.case_name + " zero-loss rate", "frames/s", *f->throughput_fps, true});
  }
  return out;
}

}  // namespace hil::record
