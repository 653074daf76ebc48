// Text tables of a run: the netperf table in the layout of netperf results pages (procedure 003:
// one row per test in netperf order, each iteration's value, then the average), the checks table
// (case, verdict, measured, limit), in Markdown and DokuWiki, and the plain console summary.
//
//   | test       |     1 |     2 | … | Average | ±CI (99 %) | unit   |
//   | TCP_STREAM | 941.2 | 940.8 | … |   941.0 |       ±0.4 | Mbit/s |
//
// A netperf test without a record (an RR test skipped against stock iperf3) gets "not run" as its
// average, one recorded without values "failed" (as netperf pages show). Pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hil/report/report_model.hpp"
#include "hil/report/results_file.hpp"

namespace hil::report {

// A table as plain, unescaped cell text: each writer escapes for its own markup.
struct text_grid {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as wide as header
};

// g as a GitHub Markdown table, and as a DokuWiki one: the first column text (left-aligned), the
// last too when last_is_text, the rest numbers (right-aligned).
[[nodiscard]] std::string grid_markdown(const text_grid& g, bool last_is_text);
[[nodiscard]] std::string grid_dokuwiki(const text_grid& g, bool last_is_text);

// The netperf table's cells: test, one column per iteration (the longest row's count; shorter
// rows padded with empty cells), Average, ±CI, unit.
[[nodiscard]] text_grid netperf_grid(const std::vector<netperf_row>& rows);

// The RFC 2544 frame-size table in seed 003's layout: a row per frame size, and per board and link
// rate in the results a column group of Mbit/s (frame bits), frames/s and % of the media maximum.
// A case without a figure shows why ("sender's limit", "no loss-free rate") in its Mbit/s cell.
//
//   | frame (bytes) | Mbit/s, 10 Mbit/s link | frames/s, 10 Mbit/s link | % of max, 10 Mbit/s link
//   | | 64            |                   7.62 |                   14,881 | 100.0 |
[[nodiscard]] text_grid frame_grid(const std::vector<frame_result>& frames);

// The frame-size table in GitHub Markdown and in DokuWiki; empty when frames is empty.
[[nodiscard]] std::string frames_markdown(const std::vector<frame_result>& frames);
[[nodiscard]] std::string frames_dokuwiki(const std::vector<frame_result>& frames);

// The netperf table in GitHub Markdown; empty when rows is empty.
[[nodiscard]] std::string netperf_markdown(const std::vector<netperf_row>& rows);

// The netperf table in DokuWiki syntax; empty when rows is empty.
[[nodiscard]] std::string netperf_dokuwiki(const std::vector<netperf_row>& rows);

// Every record as case | verdict | measured | limit, in GitHub Markdown, in file order.
[[nodiscard]] std::string checks_markdown(const std::vector<record::case_record>& records);

// Every record as case | verdict | measured | limit, in DokuWiki syntax, in file order.
[[nodiscard]] std::string checks_dokuwiki(const std::vector<record::case_record>& records);

// A Markdown page: title, the count of checks and failures, the netperf table, the checks table.
[[nodiscard]] std::string markdown_document(std::string_view title,
                                            const std::vector<record::case_record>& records,
                                            const report_model& model);

// The same page in DokuWiki syntax, to paste into a results wiki page like procedure 003's.
[[nodiscard]] std::string dokuwiki_document(std::string_view title,
                                            const std::vector<record::case_record>& records,
                                            const report_model& model);

// The fixed-width console summary ci/run-hil prints: one row per record, then
// record::tally_words.
[[nodiscard]] std::string console_summary(const std::vector<record::case_record>& records);

}  // namespace hil::report
