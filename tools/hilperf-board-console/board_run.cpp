#include "board_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

#include "hil/shell/file_transfer.hpp"

namespace hil::board_console {

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using shell::clock;
using shell::shell_word;

// A step that moves files or asks the board something: bounded, however slow the console (a
// 30 MB binary at 115200 baud takes about an hour; it is sent once).
constexpr auto transfer_time = 4h;
// A case: CTest's own timeout ends it first.
constexpr auto case_time = 48h;

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw std::system_error(errno, std::generic_category(), "cannot read " + file.string());
  }
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

void take_arguments(board_run& run, const std::vector<std::string>& arguments) {
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& a = arguments[i];
    if (a == "--profile") {
      if (i + 1 == arguments.size()) throw std::invalid_argument("--profile takes a file");
      run.profile = arguments[++i];
    } else if (a.starts_with("--profile=")) {
      run.profile = a.substr(10);
    } else {
      run.arguments.push_back(a);
    }
  }
}

int run_on_board(shell::shell_session& shell, const board_run& run, std::ostream& out,
                 std::ostream& notes, const std::atomic<bool>& stop) {
  const std::string name = run.binary.filename().string();
  const std::string dir = run.board_dir;
  const std::string work = dir + "/run";
  auto deadline = clock::now() + transfer_time;
  const auto made = shell.capture(fmt::format("mkdir -p {} && rm -rf {} && mkdir {}",
                                              shell_word(dir), shell_word(work), shell_word(work)),
                                  deadline);
  if (made.status != 0) {
    throw shell::shell_error(
        fmt::format("the board at {} cannot make {}: {}", shell.where().name(), work, made.output));
  }
  const std::string binary = read_file(run.binary);
  if (shell::put_file(shell, binary, dir + "/" + name, 0700, deadline) ==
      shell::put_outcome::sent) {
    notes << fmt::format("hilperf-board-console: sent {} ({} bytes) to {} on the board\n", name,
                         binary.size(), dir);
  }
  std::vector<std::string> env{"HILPERF_RESULTS=" + work + "/results.jsonl"};
  if (run.profile) {
    shell::put_file(shell, read_file(*run.profile), work + "/profile.toml", 0600, deadline);
    env.push_back("HILPERF_PROFILE=" + work + "/profile.toml");
  }
  if (!run.durations.empty()) env.push_back("HILPERF_DURATIONS=" + run.durations);
  // --gtest_output=<format>:<path>: written on the board, brought back to <path> (a path ending in
  // / is a directory, the file named after the binary).
  std::string format;
  fs::path report;
  std::string command = fmt::format("(cd {} && exec env", shell_word(work));
  for (const auto& word : env) command += " " + shell_word(word);
  command += " ../" + shell_word(name);
  for (const auto& a : run.arguments) {
    if (a.starts_with("--gtest_output=")) {
      const std::string spec = a.substr(15);
      const auto colon = spec.find(':');
      format = spec.substr(0, colon);
      std::string path = colon == std::string::npos ? "" : spec.substr(colon + 1);
      if (path.empty()) path = "test_detail." + format;
      if (path.ends_with('/')) path += name + "." + format;
      report = path;
      command +=
          " " + shell_word(fmt::format("--gtest_output={}:{}/gtest.{}", format, work, format));
    } else {
      command += " " + shell_word(a);
    }
  }
  command += ") </dev/null 2>&1";
  const int status = shell.run(
      command, [&](std::string_view line) { out << line << '\n'
                                                << std::flush; },
      clock::now() + case_time, &stop);
  deadline = clock::now() + transfer_time;
  if (!format.empty()) {
    if (const auto text = shell::get_file(shell, work + "/gtest." + format, deadline)) {
      if (report.has_parent_path()) fs::create_directories(report.parent_path());
      std::ofstream(report, std::ios::binary) << *text;
    } else {
      notes << fmt::format("hilperf-board-console: the board wrote no {} report (asked for {})\n",
                           format, report.string());
    }
  }
  if (const auto records = shell::get_file(shell, work + "/results.jsonl", deadline);
      records && !records->empty()) {
    std::ofstream(run.results, std::ios::binary | std::ios::app) << *records;
  }
  return status;
}

}  // namespace hil::board_console
