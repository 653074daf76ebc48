#include "hil/report/tables.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hil/report/frame_sweep_tables.hpp"
#include "hil/report/markup.hpp"
#include "hil/report/per_frame_grid.hpp"
#include "hil/report/y1564_table.hpp"

namespace hil::report {

namespace {

std::size_t iteration_columns(const std::vector<netperf_row>& rows) {
  std::size_t n = 0;
  for (const auto& r : rows) n = std::max(n, r.iterations.size());
  return n;
}

// "±CI (99 %)" with the confidence level of the first row that recorded one.
std::string ci_header(const std::vector<netperf_row>& rows) {
  for (const auto& r : rows) {
    if (r.confidence_level) return fmt::format("±CI ({:g} %)", *r.confidence_level);
  }
  return "±CI (99 %)";
}

std::vector<std::string> netperf_cells(const netperf_row& row, std::size_t columns) {
  std::vector<std::string> c{row.test};
  for (std::size_t i = 0; i < columns; ++i) {
    c.push_back(i < row.iterations.size() ? format_number(row.iterations[i]) : "");
  }
  if (row.average) {
    c.push_back(format_number(*row.average));
  } else {
    c.push_back(row.recorded ? "failed" : "not run");
  }
  std::string ci;
  if (row.ci_half_width) {
    ci = "±" + format_number(*row.ci_half_width, row.average.value_or(*row.ci_half_width));
    if (row.confidence_met == false) ci += " (not met)";
  }
  c.push_back(ci);
  c.push_back(row.unit);
  return c;
}

// The verdict word, bold when failed.
std::string verdict_text(const record::case_record& r) {
  const std::string word = verdict_word(r);
  return r.verdict.pass || r.skipped ? word : "**" + word + "**";
}

}  // namespace

std::string grid_markdown(const text_grid& g, bool last_is_text) {
  std::string out = "|";
  std::string rule = "|";
  for (std::size_t i = 0; i < g.header.size(); ++i) {
    out += " " + escape_markdown(g.header[i]) + " |";
    rule += i == 0 || (last_is_text && i + 1 == g.header.size()) ? ":---|" : "---:|";
  }
  out += "\n" + rule + "\n";
  for (const auto& row : g.rows) {
    out += "|";
    for (const auto& cell : row) out += " " + escape_markdown(cell) + " |";
    out += "\n";
  }
  return out;
}

std::string grid_dokuwiki(const text_grid& g, bool last_is_text) {
  std::string out = "^";
  for (const auto& h : g.header) out += " " + escape_dokuwiki(h) + " ^";
  out += "\n";
  for (const auto& row : g.rows) {
    out += "|";
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool number = i != 0 && !(last_is_text && i + 1 == row.size());
      out += (number ? "  " : " ") + escape_dokuwiki(row[i]) + " |";
    }
    out += "\n";
  }
  return out;
}

text_grid frame_grid(const std::vector<frame_result>& frames) {
  return per_frame_grid(frames, {"Mbit/s", "frames/s", "% of max"}, [](const frame_result& f) {
    if (!f.fps) return std::vector<std::string>{f.note, "", ""};
    // A figure with a note is a lower bound.
    const std::string at_least = f.note.empty() ? "" : "≥ ";
    return std::vector<std::string>{at_least + fmt::format("{:.2f}", *f.mbps()),
                                    at_least + fmt::format("{:.0f}", *f.fps),
                                    at_least + fmt::format("{:.1f}", *f.percent()) +
                                        (f.note.empty() ? "" : " (" + f.note + ")")};
  });
}

std::string frames_markdown(const std::vector<frame_result>& frames) {
  return frames.empty() ? std::string() : grid_markdown(frame_grid(frames), false);
}

std::string frames_dokuwiki(const std::vector<frame_result>& frames) {
  return frames.empty() ? std::string() : grid_dokuwiki(frame_grid(frames), false);
}

text_grid netperf_grid(const std::vector<netperf_row>& rows) {
  text_grid g;
  const std::size_t columns = iteration_columns(rows);
  g.header.emplace_back("test");
  for (std::size_t i = 1; i <= columns; ++i) g.header.push_back(std::to_string(i));
  g.header.emplace_back("Average");
  g.header.push_back(ci_header(rows));
  g.header.emplace_back("unit");
  for (const auto& row : rows) g.rows.push_back(netperf_cells(row, columns));
  return g;
}

// The test name and the unit are text, the rest numbers.
std::string netperf_markdown(const std::vector<netperf_row>& rows) {
  return rows.empty() ? std::string() : grid_markdown(netperf_grid(rows), true);
}

std::string netperf_dokuwiki(const std::vector<netperf_row>& rows) {
  return rows.empty() ? std::string() : grid_dokuwiki(netperf_grid(rows), true);
}

std::string checks_markdown(const std::vector<record::case_record>& records) {
  std::string out = "| case | verdict | measured | limit |\n|:---|:---|:---|:---|\n";
  for (const auto& r : records) {
    out += fmt::format("| {} | {} | {} | {} |\n", escape_markdown(r.case_name), verdict_text(r),
                       escape_markdown(measured_text(r)), escape_markdown(r.verdict.limit));
  }
  return out;
}

std::string checks_dokuwiki(const std::vector<record::case_record>& records) {
  std::string out = "^ case ^ verdict ^ measured ^ limit ^\n";
  for (const auto& r : records) {
    out += fmt::format("| {} | {} | {} | {} |\n", escape_dokuwiki(r.case_name), verdict_text(r),
                       escape_dokuwiki(measured_text(r)), escape_dokuwiki(r.verdict.limit));
  }
  return out;
}

std::string markdown_document(std::string_view title,
                              const std::vector<record::case_record>& records,
                              const report_model& model) {
  std::string out =
      fmt::format("# {}\n\n{}.\n\n", escape_markdown(title), record::tally_words(records));
  if (!model.netperf.empty()) out += "## netperf\n\n" + netperf_markdown(model.netperf) + "\n";
  if (!model.frames.empty()) {
    out += "## RFC 2544 throughput\n\n" + frames_markdown(model.frames) + "\n";
  }
  if (!model.losses.empty()) {
    out += "## RFC 2544 frame loss rate\n\n" + grid_markdown(loss_grid(model.losses), false) + "\n";
  }
  if (!model.bursts.empty()) {
    out += "## RFC 2544 back-to-back\n\n" + grid_markdown(burst_grid(model.bursts), false) + "\n";
  }
  if (!model.frame_latency.empty()) {
    out += "## RFC 2544 latency\n\n" +
           grid_markdown(frame_latency_grid(model.frame_latency), false) + "\n" +
           std::string(frame_latency_note) + "\n\n";
  }
  if (!model.services.empty()) {
    out += "## Y.1564 service configuration\n\n" + grid_markdown(y1564_grid(model.services), true) +
           "\n" + std::string(y1564_note) + "\n\n";
  }
  out += "## Checks\n\n" + checks_markdown(records);
  return out;
}

std::string dokuwiki_document(std::string_view title,
                              const std::vector<record::case_record>& records,
                              const report_model& model) {
  std::string out = fmt::format("====== {} ======\n\n{}.\n\n", escape_dokuwiki(title),
                                record::tally_words(records));
  if (!model.netperf.empty())
    out += "===== netperf =====\n\n" + netperf_dokuwiki(model.netperf) + "\n";
  if (!model.frames.empty()) {
    out += "===== RFC 2544 throughput =====\n\n" + frames_dokuwiki(model.frames) + "\n";
  }
  if (!model.losses.empty()) {
    out += "===== RFC 2544 frame loss rate =====\n\n" +
           grid_dokuwiki(loss_grid(model.losses), false) + "\n";
  }
  if (!model.bursts.empty()) {
    out += "===== RFC 2544 back-to-back =====\n\n" +
           grid_dokuwiki(burst_grid(model.bursts), false) + "\n";
  }
  if (!model.frame_latency.empty()) {
    out += "===== RFC 2544 latency =====\n\n" +
           grid_dokuwiki(frame_latency_grid(model.frame_latency), false) + "\n" +
           std::string(frame_latency_note) + "\n\n";
  }
  if (!model.services.empty()) {
    out += "===== Y.1564 service configuration =====\n\n" +
           grid_dokuwiki(y1564_grid(model.services), true) + "\n" + std::string(y1564_note) +
           "\n\n";
  }
  out += "===== Checks =====\n\n" + checks_dokuwiki(records);
  return out;
}

std::string console_summary(const std::vector<record::case_record>& records) {
  // text cut to width characters (whole UTF-8 code points) and padded to width.
  const auto cell = [](const std::string& text, std::size_t width) {
    std::string out;
    std::size_t shown = 0;
    const bool cut = display_width(text) > width;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const bool starts = (static_cast<unsigned char>(text[i]) & 0xC0U) != 0x80U;
      if (starts && shown == (cut ? width - 3 : width)) break;
      shown += starts ? 1 : 0;
      out += text[i];
    }
    if (cut) out += "...";
    return out + std::string(width - display_width(out), ' ');
  };
  std::string out = fmt::format("| {:<52} | {:<17} | {:<48} | {:<40} |\n", "case", "verdict",
                                "measured", "limit");
  out += fmt::format("|{:-<54}|{:-<19}|{:-<50}|{:-<42}|\n", "", "", "", "");
  for (const auto& r : records) {
    out += fmt::format("| {} | {} | {} | {} |\n", cell(r.case_name, 52), cell(verdict_word(r), 17),
                       cell(measured_text(r), 48), cell(r.verdict.limit, 40));
  }
  out += "\n" + record::tally_words(records) + "\n";
  return out;
}

}  // namespace hil::report
