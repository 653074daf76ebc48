#include "hil/history/spool.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace hil::history {
namespace fs = std::filesystem;
namespace {

// The key as a file name: what is not a letter, digit, '.', '_' or '-' becomes '_'.
std::string file_name(std::string_view key) {
  std::string out(key);
  for (char& c : out) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '-';
    if (!plain) c = '_';
  }
  return out + ".json";
}

}  // namespace

fs::path default_spool_dir() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && *state == '/')
    return fs::path(state) / "hilperf" / "history-spool";
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr && *home != '\0' ? home : "/tmp") / ".local" / "state" /
         "hilperf" / "history-spool";
}

fs::path keep_run(const fs::path& spool, const std::string& store_id, const run_entry& run) {
  fs::create_directories(spool);
  const fs::path target =
      spool / file_name(run.board.empty() ? run.key : run.board + "-" + run.key);
  const fs::path partial = target.string() + ".partial";
  {
    std::ofstream out(partial, std::ios::trunc);
    out << nlohmann::json{{"store", store_id}, {"run", to_json(run)}}.dump() << '\n';
    out.close();
    if (!out)
      throw std::system_error(errno, std::generic_category(), "cannot write " + partial.string());
  }
  fs::rename(partial, target);
  return target;
}

std::vector<uploaded_run> upload_kept(const fs::path& spool, const std::string& store_id,
                                      store& s) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(spool, ec)) {
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  }
  std::vector<std::pair<std::string, fs::path>> kept;  // (started, file) of this store's runs
  std::vector<run_entry> runs;
  for (const auto& f : files) {
    std::ifstream in(f);
    const auto j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object() || !j.contains("store") || !j.contains("run"))
      throw std::runtime_error(fmt::format("{}: not a kept run", f.string()));
    if (j["store"] != store_id) continue;
    runs.push_back(run_from_json(j["run"]));
    kept.emplace_back(runs.back().started, f);
  }
  std::vector<std::size_t> order(runs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return kept[a].first < kept[b].first; });
  std::vector<uploaded_run> out;
  for (const std::size_t i : order) {
    const bool added = s.add_run(runs[i]);
    fs::remove(kept[i].second, ec);  // gone already: another run on this runner uploaded it
    out.push_back({runs[i].key, runs[i].board, kept[i].second, added});
  }
  return out;
}

}  // namespace hil::history
