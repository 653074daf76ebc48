// Board farm: several boards wired to one runner, each hil case run on one of them, never two
// cases on one board at a time (docs/architecture.md "Topology"; docs/running-on-a-board.md,
// "Board farms").
//
//   farm.toml ── load_farm ──> farm { id → board profile }
//     [boards.hp0]                 │
//     profile = "../boards/a.toml" ├─ resource_spec_json ──> resources.json (CTest's resource
//     [boards.hp1]                 │    spec: one "boards" resource per board, 1 slot)
//     profile = "../boards/b.toml" │
//                                  │   ctest -j N --resource-spec-file resources.json
//                                  │     each hil case: RESOURCE_GROUPS boards:1, so CTest hands it
//                                  │     CTEST_RESOURCE_GROUP_0_BOARDS=id:hp1,slots:1
//                                  ▼
//                     allocated_board() ──> "hp1" ──> farm.board("hp1").profile
//
// $HILPERF_FARM names the farm file at ctest time: it switches the cases from RESOURCE_LOCK
// hil_bench to RESOURCE_GROUPS boards:1 (cases/farm_mode.cmake) and makes every tool of the run
// (cases, hilperf-testbed, hilperf-report --regressions) act on the farm's boards.
//
// Contract: load_farm() returns a farm whose every board profile loaded and validated, whose ids
// CTest accepts, and whose boards are distinct (no two real boards share a profile file, no two
// simulated ones a bench)
// and list the same cases (same MTU tiers and jumbo tier: CTest discovers the case list once, from
// the first board); otherwise it throws profile_error listing every problem.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hil/profile/profile.hpp"

namespace hil::profile {

inline constexpr const char* farm_env = "HILPERF_FARM";
inline constexpr const char* farm_resource = "boards";  // the CTest resource type of a board

// One board of the farm.
struct farm_board {
  std::string id;                      // CTest resource id: [a-z_][a-z0-9_]*
  std::filesystem::path profile_file;  // as resolved: relative paths are from the farm file's dir
  profile board;                       // the loaded, validated profile (bench override applied)
};

struct farm {
  std::string source;              // the farm file
  std::vector<farm_board> boards;  // by id, at least one

  // The board with this id. Throws std::runtime_error listing the farm's ids when there is none
  // (a resource spec file that was not generated from this farm).
  [[nodiscard]] const farm_board& board(std::string_view id) const;
};

// Parses and validates a farm file. Throws profile_error (source = the farm file).
farm load_farm(const std::filesystem::path& file);

// $HILPERF_FARM when set and non-empty.
std::optional<std::filesystem::path> farm_from_environment();

// CTest's resource spec (version 1.0) for the farm: {"local":[{"boards":[{"id":…,"slots":1},…]}]}.
std::string resource_spec_json(const farm& f);

// The board id in a CTEST_RESOURCE_GROUP_<n>_BOARDS value, "id:hp1,slots:1". Throws
// std::runtime_error quoting a value of any other form.
std::string parse_allocation(std::string_view value);

// The board CTest allocated to this process ($CTEST_RESOURCE_GROUP_COUNT and the group whose type
// is "boards"); nullopt when CTest allocated none (no --resource-spec-file, or not under CTest).
// Throws std::runtime_error for a malformed allocation.
std::optional<std::string> allocated_board();

// The board a case process runs on: the allocated one; with none, the first board when only
// listing the cases (CTest's discovery runs outside any allocation); otherwise throws
// std::runtime_error saying how to run the farm (ctest --resource-spec-file, or ci/run-hil --farm).
const farm_board& select_farm_board(const farm& f, bool listing);

}  // namespace hil::profile
