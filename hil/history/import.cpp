#include "hil/history/import.hpp"

#include <algorithm>
#include <system_error>
#include <vector>

#include "hil/record/record_file.hpp"

namespace hil::history {
namespace fs = std::filesystem;
namespace {

std::vector<fs::path> entries(const fs::path& dir, bool directories) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (directories ? e.is_directory() : e.is_regular_file() && e.path().extension() == ".jsonl")
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void import_board(const fs::path& dir, store& s, const std::string& board, import_tally& tally) {
  for (const auto& f : entries(dir, false)) {
    const std::string id = f.stem().string();
    run_entry run = new_run(record::read_records(f), board);
    run.key = "dir:" + id;
    const std::string started = started_of_id(id);
    run.started = started.empty() ? id : started;
    run.runner.clear();  // unknown: the directory kept no runner
    run.software_version.clear();
    run.results = f;
    ++(s.add_run(run) ? tally.added : tally.present);
  }
}

}  // namespace

import_tally import_directory(const fs::path& dir, store& s, const std::string& board) {
  if (!fs::is_directory(dir)) {
    throw std::system_error(std::make_error_code(std::errc::not_a_directory),
                            "history import: " + dir.string());
  }
  import_tally tally;
  import_board(dir, s, board, tally);
  for (const auto& sub : entries(dir, true)) import_board(sub, s, sub.filename().string(), tally);
  return tally;
}

}  // namespace hil::history
