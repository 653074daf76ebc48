// One case binary run on a Linux board through the shell at its console, as CTest's launcher runs
// it over ssh (ci/board-launcher): the same arguments, the same files back.
//
//   runner                                         board (hil::shell::shell_session)
//   <binary> ──put (skipped when its sum matches)──▶ <dir>/<name>               kept for next time
//   profile  ──put──────────────────────────────────▶ <dir>/run/profile.toml      run/ emptied
//   first (cd <dir>/run && exec env HILPERF_RESULTS=… HILPERF_PROFILE=… ../<name> <arguments…>)
//            ◀── its output, line by line, and its exit status
//   --gtest_output path ◀──get── <dir>/run/gtest.<format>
//   $HILPERF_RESULTS   ◀──get── <dir>/run/results.jsonl  (appended)
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "hil/shell/shell_session.hpp"

namespace hil::board_console {

struct board_run {
  std::filesystem::path binary;
  std::vector<std::string> arguments;  // as CTest gave them: --profile and --gtest_output mapped
  std::optional<std::filesystem::path> profile;         // else $HILPERF_PROFILE's, when set
  std::string durations;                                // $HILPERF_DURATIONS, passed on when set
  std::filesystem::path results = "hil-results.jsonl";  // where the records are appended
  std::string board_dir = "/tmp/hilperf-console";       // the binaries' home on the board
};

// The arguments CTest gave, with --profile and --gtest_output taken out into run; throws
// std::invalid_argument for --profile without a file.
void take_arguments(board_run& run, const std::vector<std::string>& arguments);

// Runs run on the board at shell, its output to out (a line at a time, flushed), "sent …" notes
// to notes; the binary's exit status (the shell's for a binary ended by Ctrl-C once stop became
// true). Throws hil::shell::shell_error, std::system_error when the console fails.
int run_on_board(shell::shell_session& shell, const board_run& run, std::ostream& out,
                 std::ostream& notes, const std::atomic<bool>& stop);

}  // namespace hil::board_console
