// The directory store, as hilperf-report kept history before the databases: one results file per
// run, <root>/<id>.jsonl for a single board, <root>/<board>/<id>.jsonl in a farm. Runs are read
// back through report::load_history, so their figures are the ones computed when they ran.
#include <algorithm>
#include <system_error>

#include "hil/history/detail/stores.hpp"
#include "hil/record/record_file.hpp"

namespace hil::history::detail {
namespace {

namespace fs = std::filesystem;

// The run files of dir, by name (oldest first); none for a missing dir.
std::vector<fs::path> run_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_regular_file() && e.path().extension() == ".jsonl") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class dir_store final : public store {
 public:
  explicit dir_store(fs::path root) : root_(std::move(root)) {}

  // As before the databases: a run of the same second replaces the file.
  bool add_run(const run_entry& run) override {
    report::store_run(dir_of(run.board), id_of_started(run.started), run.results, run.board);
    return true;
  }

  std::vector<report::history_run> last_runs(std::string_view board, std::size_t count) override {
    return report::load_history(dir_of(board), count);
  }

  std::vector<point> figures_since(std::string_view board, std::string_view since) override {
    std::vector<point> out;
    for (const auto& f : run_files(dir_of(board))) {
      const std::string id = f.stem().string();
      const std::string started = started_of_id(id);
      if (started.empty() ? id < since : started < since) continue;
      for (auto& row : figure_rows(record::read_records(f))) {
        out.push_back({std::string(board), id, started, "", "", std::move(row.case_name),
                       std::move(row.figure)});
      }
    }
    return out;
  }

  std::vector<std::string> boards() override {
    std::vector<std::string> out;
    if (!run_files(root_).empty()) out.emplace_back();
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root_, ec)) {
      if (e.is_directory() && !run_files(e.path()).empty())
        out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  std::string where(const run_entry& run) const override { return file_of(run).string(); }

 private:
  [[nodiscard]] fs::path dir_of(std::string_view board) const {
    return board.empty() ? root_ : root_ / board;
  }
  [[nodiscard]] fs::path file_of(const run_entry& run) const {
    return dir_of(run.board) / (id_of_started(run.started) + ".jsonl");
  }

  fs::path root_;
};

}  // namespace

std::unique_ptr<store> make_dir_store(fs::path root) {
  return std::make_unique<dir_store>(std::move(root));
}

}  // namespace hil::history::detail
