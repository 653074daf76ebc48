// hilperf-report: turns the JSON results of a run (one record per case, JSON lines) into a
// summary table. Reads JSON only, never the human-readable logs (STYLE.md rule 9).
// Exit codes: 0 every recorded case passed, 1 some failed, 2 bad input.
#include <fstream>
#include <iostream>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace {

// Shortens text to width characters for the table.
std::string fit(std::string text, std::size_t width) {
  if (text.size() > width) text = text.substr(0, width - 3) + "...";
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("hilperf-report: summary of a hil run's JSON results");
  std::string file;
  app.add_option("results", file, "the results file (JSON lines)")->required();
  CLI11_PARSE(app, argc, argv);
  std::ifstream in(file);
  if (!in) {
    std::cerr << "hilperf-report: cannot read " << file << " (did the suite run?)\n";
    return 2;
  }
  std::cout << fmt::format("| {:<52} | {:<7} | {:<48} | {:<40} |\n", "case", "verdict", "measured",
                           "limit");
  std::cout << fmt::format("|{:-<54}|{:-<9}|{:-<50}|{:-<42}|\n", "", "", "", "");
  int failed = 0;
  int total = 0;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    nlohmann::json r;
    try {
      r = nlohmann::json::parse(line);
    } catch (const std::exception& e) {
      std::cerr << "hilperf-report: " << file << ":" << n << ": not JSON: " << e.what() << '\n';
      return 2;
    }
    const bool pass = r.value("pass", false);
    ++total;
    failed += pass ? 0 : 1;
    std::cout << fmt::format("| {:<52} | {:<7} | {:<48} | {:<40} |\n",
                             fit(r.value("case", "?"), 52), pass ? "pass" : "FAIL",
                             fit(r.value("observed", ""), 48), fit(r.value("limit", ""), 40));
  }
  std::cout << fmt::format("\n{} recorded checks, {} failed\n", total, failed);
  return failed == 0 ? 0 : 1;
}
