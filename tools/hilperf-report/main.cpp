// hilperf-report: turns the JSON results of a run (one record per case, JSON lines) into a console
// summary table, or into Markdown, DokuWiki and a self-contained HTML page (hil/report). Reads JSON
// only, never the human-readable logs (docs/code-style.md rule 9).
// Exit codes: 0 every recorded case passed, 1 some failed, 2 bad input or an unwritable output.
// --regressions compares the run with the board's nightly history instead (regressions.hpp);
// --complete checks that every case of the run left a record (complete.hpp); the verb
// `hilperf-report history …` queries and imports the history store (history_verb.hpp).
#include <cerrno>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <system_error>

#include <CLI/CLI.hpp>

#include "complete.hpp"
#include "hil/history/store.hpp"
#include "hil/report/html_report.hpp"
#include "hil/report/report_model.hpp"
#include "hil/report/results_file.hpp"
#include "hil/report/tables.hpp"
#include "history_verb.hpp"
#include "regressions.hpp"

namespace {

constexpr std::size_t trend_runs = 30;  // how many earlier runs the trend charts show

// Writes text to file, or to stdout when file is "-"; throws std::system_error when it cannot.
void write_output(const std::string& file, const std::string& text) {
  if (file == "-") {
    std::cout << text << std::flush;
    return;
  }
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (out) out << text;
  out.close();
  if (!out) throw std::system_error(errno, std::generic_category(), "cannot write " + file);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "history") return history_main(argc - 1, argv + 1);
  CLI::App app("hilperf-report: summary and reports of a hil run's JSON results");
  std::string file;
  std::string markdown, dokuwiki, html;
  std::string title = "hilperf report";
  app.add_option("results", file, "the results file (JSON lines)")->required();
  app.add_option("--markdown", markdown, "write a Markdown report to FILE ('-': stdout)")
      ->option_text("FILE");
  app.add_option("--dokuwiki", dokuwiki, "write a DokuWiki report to FILE ('-': stdout)")
      ->option_text("FILE");
  app.add_option("--html", html, "write a self-contained HTML report to FILE ('-': stdout)")
      ->option_text("FILE");
  app.add_option("--title", title, "the reports' title")->option_text("TEXT");
  regression_options reg;
  bool regressions = false;
  app.add_flag("--regressions", regressions,
               "compare with the board's history ([history] in the profile), store this run; exit "
               "1 on a regression, 77 when no history is configured");
  app.add_option("--profile", reg.profile,
                 "board profile (default: $HILPERF_PROFILE, the build's)");
  app.add_option("--history", reg.history,
                 "history directory or store URL (sqlite:FILE, postgresql://user@host/db; "
                 "overrides [history]); with --html: trend charts over it");
  app.add_flag("!--no-store", reg.store, "with --regressions: do not keep this run in the history");
  app.add_option("--board", reg.board,
                 "a board farm's board: report (or check) only the cases that ran on it");
  std::string listing;
  std::int64_t since_ms = 0;
  app.add_option("--complete", listing,
                 "completeness check: every case in LISTING (--gtest_list_tests output) has a "
                 "record; exit 1 naming those that never ran")
      ->option_text("LISTING");
  app.add_option("--since-ms", since_ms,
                 "with --complete: only records recorded at or after this time (ms since the "
                 "epoch) count");
  CLI11_PARSE(app, argc, argv);
  if (!listing.empty()) return check_complete(file, listing, since_ms);
  if (regressions) {
    reg.results = file;
    return check_regressions(reg);
  }
  try {
    const auto records = hil::record::of_board(hil::record::read_records(file), reg.board);
    if (records.empty()) {
      // A run that recorded nothing did not test anything: never a green report.
      std::cerr << "hilperf-report: " << file
                << (reg.board.empty() ? "" : " (board " + reg.board + ")")
                << " holds no checks: the suite recorded no verdict (discovery failed, a filter or "
                   "a label selected no case, or the cases wrote elsewhere: $HILPERF_RESULTS)\n";
      return 2;
    }
    const auto model = hil::report::build_model(records);
    if (markdown.empty() && dokuwiki.empty() && html.empty()) {
      std::cout << hil::report::console_summary(records);
    }
    if (!markdown.empty()) {
      write_output(markdown, hil::report::markdown_document(title, records, model));
    }
    if (!dokuwiki.empty()) {
      write_output(dokuwiki, hil::report::dokuwiki_document(title, records, model));
    }
    if (!html.empty()) {
      hil::report::html_options page{title, file, {}};
      if (reg.history) {  // trend charts over the last runs kept there, this run last
        // A directory given is the board's own (as before); a database holds every board's.
        const auto where = hil::history::parse_location(*reg.history, {});
        const std::string board =
            where.kind == hil::history::engine::directory ? std::string() : reg.board;
        page.trends =
            hil::report::trends(hil::history::open_store(where)->last_runs(board, trend_runs),
                                hil::report::run_metrics(records));
      }
      write_output(html, hil::report::render_html(records, model, page));
    }
    return hil::record::count_failed(records) == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "hilperf-report: " << e.what() << '\n';
    return 2;
  }
}
