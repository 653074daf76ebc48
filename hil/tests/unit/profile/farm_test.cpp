// Unit tests of the board farm (hil/profile/farm.hpp): a valid farm loads with its ids in order,
// profile paths resolved from the farm file and bench overrides applied; every validation rule
// (ids, unknown keys, missing or broken profiles, shared benches and profiles, bench overrides,
// differing case lists, an empty farm, a missing or malformed farm file) reports its dotted key,
// all in one pass; CTest's resource spec; the allocation CTest hands a case through
// CTEST_RESOURCE_GROUP_*; and choosing the board a case runs on.
#include "hil/profile/farm.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hil/profile/profile.hpp"
#include "hil/tests/cleared_env.hpp"
#include "hil/tests/temp_dir.hpp"

namespace hil::profile {
namespace {

namespace fs = std::filesystem;

// The smallest valid simulated-bench profile (bench "hp0" by default).
constexpr std::string_view sim_profile = R"([dut]
ipv4 = "198.18.0.10/24"
[peer]
mode = "sim"
ipv4 = "198.18.0.195"
)";

// The smallest valid real-board profile.
constexpr std::string_view external_profile = R"([dut]
ipv4 = "192.168.1.10/24"
[peer]
mode = "external"
ipv4 = "192.168.1.195"
)";

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// A temp dir with boards/ (profiles) and farms/ (farm files), so that the farm's profile paths
// are relative ("../boards/x.toml") and the environment saved and cleared.
class FarmTest : public ::testing::Test {
 protected:
  // Writes text to <temp>/<relative>, creating its directory; returns the absolute path.
  fs::path write(const fs::path& relative, std::string_view text) const {
    fs::path file = dir_.path() / relative;
    fs::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    EXPECT_TRUE(out) << "cannot write " << file;
    return file;
  }
  // A profile under boards/.
  fs::path board_profile(std::string_view name, std::string_view text) const {
    return write(fs::path("boards") / name, text);
  }
  // The farm file farms/farm.toml.
  fs::path farm_file(std::string_view text) const { return write("farms/farm.toml", text); }
  [[nodiscard]] const fs::path& dir() const { return dir_.path(); }

  // The problems load_farm reports for the farm text; fails the test when the farm is accepted.
  std::vector<problem> problems_of(std::string_view farm_text) const {
    const fs::path file = farm_file(farm_text);
    try {
      (void)load_farm(file);
    } catch (const profile_error& e) {
      return e.problems();
    }
    ADD_FAILURE() << "farm was accepted:\n" << farm_text;
    return {};
  }

 private:
  // Every variable these tests read or set, directly or through load_profile
  // (HILPERF_DURATIONS).
  hil::test::cleared_env environment_{"CTEST_RESOURCE_GROUP_COUNT",
                                      "CTEST_RESOURCE_GROUP_0",
                                      "CTEST_RESOURCE_GROUP_0_BOARDS",
                                      "CTEST_RESOURCE_GROUP_1",
                                      "CTEST_RESOURCE_GROUP_1_BOARDS",
                                      "HILPERF_DURATIONS",
                                      "HILPERF_FARM"};
  hil::test::temp_dir dir_{"hilperf-farm-test"};
};

// Whether problems hold one with this key whose message contains part.
::testing::AssertionResult has_problem(const std::vector<problem>& problems, std::string_view key,
                                       std::string_view part = "") {
  for (const problem& p : problems) {
    if (p.key == key && contains(p.message, part)) return ::testing::AssertionSuccess();
  }
  auto failure = ::testing::AssertionFailure()
                 << "no problem with key \"" << key << "\" mentioning \"" << part << "\"; got:";
  for (const problem& p : problems)
    failure << "\n  " << p.key << ":" << p.line << ": " << p.message;
  return failure;
}

// Sets a variable that the fixture's cleared_env restores.
void set_env(const char* name, const char* value) {
  ::setenv(name, value, 1);  // NOLINT(concurrency-mt-unsafe): the tests run on one thread
}

using FarmLoad = FarmTest;
using FarmValidation = FarmTest;
using FarmFile = FarmTest;
using FarmResourceSpec = FarmTest;
using FarmAllocation = FarmTest;
using FarmSelection = FarmTest;

// --- a valid farm ------------------------------------------------------------------------------

TEST_F(FarmLoad, TwoSimBoardsLoadInIdOrderWithBenchOverride) {
  const fs::path profile = board_profile("sim.toml", sim_profile);
  // Listed out of order: the farm is kept by id.
  const fs::path file = farm_file(R"([boards.hp1]
profile = "../boards/sim.toml"
bench = "b1"

[boards.hp0]
profile = "../boards/sim.toml"
)");
  const farm f = load_farm(file);
  EXPECT_EQ(f.source, file.string());
  ASSERT_EQ(f.boards.size(), 2U);
  EXPECT_EQ(f.boards[0].id, "hp0");
  EXPECT_EQ(f.boards[1].id, "hp1");
  EXPECT_EQ(f.boards[0].profile_file, profile) << "relative to the farm file's directory";
  EXPECT_EQ(f.boards[1].profile_file, profile);
  EXPECT_EQ(f.boards[0].board.peer.mode, peer_mode::sim);
  EXPECT_EQ(f.boards[0].board.sim.bench, "hp0") << "the profile's own bench";
  EXPECT_EQ(f.boards[1].board.sim.bench, "b1") << "the override";
  EXPECT_EQ(f.boards[1].board.dut_netns(), "hilperf-b1-dut");
  EXPECT_EQ(&f.board("hp1"), &f.boards[1]);
}

TEST_F(FarmLoad, ProfilePathDoesNotDependOnWorkingDirectory) {
  board_profile("sim.toml", sim_profile);
  const fs::path file = farm_file(R"([boards.hp0]
profile = "../boards/sim.toml"
)");
  const fs::path cwd = fs::current_path();
  fs::current_path(fs::temp_directory_path());
  farm f;
  EXPECT_NO_THROW(f = load_farm(file));
  fs::current_path(cwd);
  ASSERT_EQ(f.boards.size(), 1U);
  EXPECT_EQ(f.boards[0].profile_file, dir() / "boards" / "sim.toml");
}

TEST_F(FarmLoad, AbsoluteProfilePathIsKept) {
  const fs::path profile = board_profile("sim.toml", sim_profile);
  const farm f = load_farm(farm_file("[boards.hp0]\nprofile = \"" + profile.string() + "\"\n"));
  ASSERT_EQ(f.boards.size(), 1U);
  EXPECT_EQ(f.boards[0].profile_file, profile);
}

TEST_F(FarmLoad, TwoRealBoardsWithTheirOwnProfilesLoad) {
  board_profile("board-a.toml", external_profile);
  board_profile("board-b.toml", external_profile);
  const farm f = load_farm(farm_file(R"([boards.board_a]
profile = "../boards/board-a.toml"
[boards.board_b]
profile = "../boards/board-b.toml"
)"));
  ASSERT_EQ(f.boards.size(), 2U);
  EXPECT_EQ(f.boards[0].id, "board_a");
  EXPECT_EQ(f.boards[1].id, "board_b");
  EXPECT_EQ(f.boards[1].board.peer.mode, peer_mode::external);
}

TEST_F(FarmLoad, ShippedSimPairFarmLoads) {
  const farm f = load_farm(fs::path(HIL_SOURCE_DIR) / "ci" / "farms" / "sim-pair.toml");
  ASSERT_EQ(f.boards.size(), 2U);
  EXPECT_EQ(f.boards[0].id, "sim_a");
  EXPECT_EQ(f.boards[0].board.sim.bench, "fm0");
  EXPECT_EQ(f.boards[1].board.sim.bench, "fm1");
  EXPECT_EQ(f.boards[0].board.sim.shape_mbit, 300);
}

// --- each rule, with its dotted key --------------------------------------------------------------

// A parameter with the name its test instance carries.
struct named_value {
  const char* name;   // the instance name, e.g. "Uppercase"
  const char* value;  // what the test writes into the farm file
};

std::string name_of(const ::testing::TestParamInfo<named_value>& info) { return info.param.name; }

// googletest prints the value a failing instance wrote, not the struct's bytes.
void PrintTo(const named_value& v, std::ostream* os) { *os << v.value; }

class FarmBadId : public FarmTest, public ::testing::WithParamInterface<named_value> {};

TEST_P(FarmBadId, IsReportedUnderItsKey) {
  board_profile("sim.toml", sim_profile);
  const std::string id = GetParam().value;
  const auto problems = problems_of("[boards.\"" + id + "\"]\nprofile = \"../boards/sim.toml\"\n");
  EXPECT_TRUE(has_problem(problems, "boards." + id, "resource id"));
}

constexpr std::array<named_value, 4> bad_ids{
    {{"Uppercase", "Board1"}, {"Dash", "board-1"}, {"LeadingDigit", "1board"}, {"Dot", "board.1"}}};
INSTANTIATE_TEST_SUITE_P(FarmResourceIds, FarmBadId, ::testing::ValuesIn(bad_ids), name_of);

TEST_F(FarmValidation, UnknownTopLevelKeyIsReported) {
  board_profile("sim.toml", sim_profile);
  const auto problems = problems_of(R"(runner = "ci-1"
[boards.hp0]
profile = "../boards/sim.toml"
)");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_TRUE(has_problem(problems, "runner", "unknown key"));
  EXPECT_EQ(problems[0].line, 1);
}

TEST_F(FarmValidation, UnknownBoardKeyIsReported) {
  board_profile("sim.toml", sim_profile);
  const auto problems = problems_of(R"([boards.hp0]
profile = "../boards/sim.toml"
benhc = "b1"
)");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_TRUE(has_problem(problems, "boards.hp0.benhc", "unknown key"));
  EXPECT_EQ(problems[0].line, 3);
}

// The farm's ssh target and the profile's peer.ssh_target follow one rule (detail/names.hpp).
TEST_F(FarmValidation, SshTargetFollowsTheProfilesRule) {
  board_profile("sim.toml", sim_profile);
  for (const std::string_view target : {"root@192.168.1.10", "board-1"}) {
    EXPECT_NO_THROW((void)load_farm(farm_file(
        fmt::format("[boards.hp0]\nprofile = \"../boards/sim.toml\"\nssh = \"{}\"\n", target))))
        << target;
  }
  for (const std::string_view target :
       {"", "-oProxyCommand=x", "root@a b", "root@a\\tb", "root@\\\"a\\\""}) {
    const auto problems = problems_of(
        fmt::format("[boards.hp0]\nprofile = \"../boards/sim.toml\"\nssh = \"{}\"\n", target));
    EXPECT_TRUE(has_problem(problems, "boards.hp0.ssh", "user@host")) << target;
    if (target.empty()) continue;  // an empty peer.ssh_target is unset, checked in ssh mode
    try {
      (void)parse_profile(fmt::format("[dut]\nipv4 = \"192.168.1.10/24\"\n[peer]\nmode = "
                                      "\"ssh\"\nipv4 = \"192.168.1.195\"\nssh_target = \"{}\"\n",
                                      target),
                          "t.toml");
      ADD_FAILURE() << "peer.ssh_target " << target << " was accepted";
    } catch (const profile_error& e) {
      EXPECT_TRUE(contains(e.what(), "peer.ssh_target: must be user@host")) << e.what();
    }
  }
}

TEST_F(FarmValidation, MissingProfileIsReported) {
  const auto problems = problems_of("[boards.hp0]\nbench = \"b0\"\n");
  EXPECT_TRUE(has_problem(problems, "boards.hp0.profile", "missing"));
}

TEST_F(FarmValidation, EmptyProfilePathIsReportedAsMissing) {
  const auto problems = problems_of("[boards.hp0]\nprofile = \"\"\n");
  EXPECT_TRUE(has_problem(problems, "boards.hp0.profile", "missing"));
}

TEST_F(FarmValidation, BoardThatIsNotATableIsReported) {
  board_profile("sim.toml", sim_profile);
  const auto problems = problems_of("[boards]\nhp0 = \"../boards/sim.toml\"\n");
  EXPECT_TRUE(has_problem(problems, "boards.hp0", "must be a table"));
}

TEST_F(FarmValidation, ProfileThatDoesNotExistIsReportedWithItsResolvedPath) {
  const auto problems = problems_of(R"([boards.hp0]
profile = "../boards/absent.toml"
)");
  // Resolved from the farm file's directory, not the working directory; normalised or not.
  const fs::path resolved = dir() / "farms" / ".." / "boards" / "absent.toml";
  EXPECT_TRUE(has_problem(problems, "boards.hp0.profile", resolved.string()) ||
              has_problem(problems, "boards.hp0.profile", resolved.lexically_normal().string()))
      << "the message names " << resolved;
  EXPECT_TRUE(has_problem(problems, "boards.hp0.profile", "does not exist"));
}

TEST_F(FarmValidation, ProblemOfABoardProfileIsNestedUnderTheBoard) {
  board_profile("broken.toml", std::string(sim_profile) + "[link]\nspeed_mbps = -1\n");
  const auto problems = problems_of(R"([boards.hp0]
profile = "../boards/broken.toml"
)");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_TRUE(has_problem(problems, "boards.hp0.profile", "cannot be used"));
  EXPECT_TRUE(has_problem(problems, "boards.hp0.profile", "link.speed_mbps"));
  EXPECT_EQ(problems[0].line, 2) << "the line of profile = in the farm file";
}

TEST_F(FarmValidation, SimBoardsSharingABenchAreReported) {
  board_profile("sim.toml", sim_profile);
  const auto problems = problems_of(R"([boards.hp0]
profile = "../boards/sim.toml"
[boards.hp1]
profile = "../boards/sim.toml"
)");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_TRUE(has_problem(problems, "boards.hp1", "shares the simulated bench \"hp0\""));
  EXPECT_TRUE(has_problem(problems, "boards.hp1", "boards.hp0"));
}

TEST_F(FarmValidation, SimBoardsFromTwoProfilesWithOneBenchAreReported) {
  board_profile("a.toml", sim_profile);
  board_profile("b.toml", sim_profile);
  const auto problems = problems_of(R"([boards.hp0]
profile = "../boards/a.toml"
[boards.hp1]
profile = "../boards/b.toml"
)");
  EXPECT_TRUE(has_problem(problems, "boards.hp1", "shares the simulated bench"));
}

TEST_F(FarmValidation, BenchOverrideThatCollidesWithAnotherBoardIsReported) {
  board_profile("sim.toml", sim_profile);
  const auto problems = problems_of(R"([boards.hp0]
profile = "../boards/sim.toml"
bench = "b1"
[boards.hp1]
profile = "../boards/sim.toml"
bench = "b1"
)");
  EXPECT_TRUE(has_problem(problems, "boards.hp1", "shares the simulated bench \"b1\""));
}

TEST_F(FarmValidation, BenchOverrideOnARealBoardIsReported) {
  board_profile("external.toml", external_profile);
  board_profile("ssh.toml", R"([dut]
ipv4 = "192.168.1.10/24"
[peer]
mode = "ssh"
ipv4 = "192.168.1.195"
ssh_target = "lab@192.168.1.195"
)");
  const auto problems = problems_of(R"([boards.ext]
profile = "../boards/external.toml"
bench = "b1"
[boards.remote]
profile = "../boards/ssh.toml"
bench = "b2"
)");
  ASSERT_EQ(problems.size(), 2U);
  EXPECT_TRUE(has_problem(problems, "boards.ext.bench", "describes a real board"));
  EXPECT_TRUE(has_problem(problems, "boards.remote.bench", "describes a real board"));
  EXPECT_EQ(problems[0].line, 3);
}

class FarmBadBenchOverride : public FarmTest, public ::testing::WithParamInterface<named_value> {};

TEST_P(FarmBadBenchOverride, IsReportedUnderItsKey) {
  board_profile("sim.toml", sim_profile);
  const auto problems = problems_of(std::string("[boards.hp0]\nprofile = \"../boards/sim.toml\"\n"
                                                "[boards.hp1]\nprofile = \"../boards/sim.toml\"\n"
                                                "bench = ") +
                                    GetParam().value + "\n");
  EXPECT_TRUE(has_problem(problems, "boards.hp1.bench", "bench name"));
}

constexpr std::array<named_value, 6> bad_benches{{{"Uppercase", "\"B1\""},
                                                  {"Dash", "\"hp-1\""},
                                                  {"NineCharacters", "\"bench1234\""},
                                                  {"Empty", "\"\""},
                                                  {"NotAString", "1"},
                                                  // [sim] bench in a profile takes [a-z0-9] only
                                                  {"Underscore", "\"hp_1\""}}};
INSTANTIATE_TEST_SUITE_P(FarmBenchNames, FarmBadBenchOverride, ::testing::ValuesIn(bad_benches),
                         name_of);

TEST_F(FarmValidation, RealBoardsSharingAProfileAreReported) {
  const fs::path profile = board_profile("board.toml", external_profile);
  // The same file by two spellings: relative and absolute.
  const auto problems = problems_of(
      "[boards.board_a]\nprofile = \"../boards/board.toml\"\n"
      "[boards.board_b]\nprofile = \"" +
      profile.string() + "\"\n");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_TRUE(has_problem(problems, "boards.board_b", "same profile as boards.board_a"));
}

TEST_F(FarmValidation, BoardsWithOtherMtuTiersAreReported) {
  board_profile("a.toml", std::string(sim_profile) + "[sim]\nbench = \"a\"\n");
  board_profile("b.toml",
                std::string(sim_profile) + "[sim]\nbench = \"b\"\n[mtu]\ntiers = [576, 1500]\n");
  const auto problems = problems_of(R"([boards.hp0]
profile = "../boards/a.toml"
[boards.hp1]
profile = "../boards/b.toml"
)");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_TRUE(has_problem(problems, "boards.hp1", "lists other cases than boards.hp0"));
}

TEST_F(FarmValidation, BoardsWithOtherJumboTierAreReported) {
  board_profile("a.toml", std::string(sim_profile) + "[sim]\nbench = \"a\"\n");
  board_profile("b.toml", std::string(sim_profile) + "[sim]\nbench = \"b\"\n[mtu]\njumbo = 8000\n");
  const auto problems = problems_of(R"([boards.hp0]
profile = "../boards/a.toml"
[boards.hp1]
profile = "../boards/b.toml"
)");
  EXPECT_TRUE(has_problem(problems, "boards.hp1", "lists other cases"));
}

TEST_F(FarmValidation, FarmWithoutBoardsIsReported) {
  for (const std::string_view text : {std::string_view(""), std::string_view("[boards]\n")}) {
    SCOPED_TRACE(text);
    const auto problems = problems_of(text);
    ASSERT_EQ(problems.size(), 1U);
    EXPECT_TRUE(has_problem(problems, "boards", "at least one board"));
  }
}

TEST_F(FarmValidation, EveryProblemIsReportedInOnePass) {
  board_profile("sim.toml", sim_profile);
  const fs::path file = farm_file(R"(runner = "ci-1"
[boards.Board-1]
profile = "../boards/sim.toml"
colour = "red"
[boards.hp2]
profile = "../boards/absent.toml"
)");
  try {
    (void)load_farm(file);
    FAIL() << "four mistakes must be refused";
  } catch (const profile_error& e) {
    const auto& problems = e.problems();
    EXPECT_EQ(problems.size(), 4U);
    EXPECT_TRUE(has_problem(problems, "runner", "unknown key"));
    EXPECT_TRUE(has_problem(problems, "boards.Board-1", "resource id"));
    EXPECT_TRUE(has_problem(problems, "boards.Board-1.colour", "unknown key"));
    EXPECT_TRUE(has_problem(problems, "boards.hp2.profile", "absent.toml"));
    const std::string what = e.what();
    EXPECT_TRUE(what.starts_with("farm " + file.string())) << what;
    EXPECT_TRUE(contains(what, "4 problem(s)")) << what;
    EXPECT_TRUE(contains(what, "boards.Board-1.colour")) << what;
  }
}

// --- the farm file itself ----------------------------------------------------------------------

TEST_F(FarmFile, MissingFarmFileIsAFarmError) {
  const fs::path file = dir() / "farms" / "absent.toml";
  try {
    (void)load_farm(file);
    FAIL() << "a missing farm file was accepted";
  } catch (const profile_error& e) {
    ASSERT_EQ(e.problems().size(), 1U);
    EXPECT_EQ(e.problems()[0].key, "(file)");
    EXPECT_TRUE(contains(e.problems()[0].message, file.string()));
    EXPECT_TRUE(std::string_view(e.what()).starts_with("farm ")) << e.what();
  }
}

TEST_F(FarmFile, DirectoryIsNotAFarmFile) {
  fs::create_directories(dir() / "farms");
  try {
    (void)load_farm(dir() / "farms");
    FAIL() << "a directory was accepted";
  } catch (const profile_error& e) {
    ASSERT_EQ(e.problems().size(), 1U);
    EXPECT_EQ(e.problems()[0].key, "(file)");
  }
}

TEST_F(FarmFile, SyntaxErrorIsAFarmError) {
  const fs::path file = farm_file("[boards.hp0]\nprofile = \"../boards/sim.toml\n");
  try {
    (void)load_farm(file);
    FAIL() << "a TOML syntax error was accepted";
  } catch (const profile_error& e) {
    ASSERT_EQ(e.problems().size(), 1U);
    EXPECT_EQ(e.problems()[0].key, "(syntax)");
    EXPECT_EQ(e.problems()[0].line, 2);
    EXPECT_TRUE(std::string_view(e.what()).starts_with("farm " + file.string())) << e.what();
  }
}

// --- CTest's resource spec ---------------------------------------------------------------------

TEST_F(FarmResourceSpec, ListsEveryBoardWithOneSlotInBoardOrder) {
  board_profile("sim.toml", sim_profile);
  const farm f = load_farm(farm_file(R"([boards.zeta]
profile = "../boards/sim.toml"
bench = "z"
[boards.alpha]
profile = "../boards/sim.toml"
)"));
  const nlohmann::json spec = nlohmann::json::parse(resource_spec_json(f));
  EXPECT_EQ(spec["version"], (nlohmann::json{{"major", 1}, {"minor", 0}}));
  ASSERT_EQ(spec["local"].size(), 1U);
  EXPECT_EQ(spec["local"][0].size(), 1U) << "one resource type";
  EXPECT_EQ(spec["local"][0]["boards"],
            nlohmann::json::parse(R"([{"id":"alpha","slots":1},{"id":"zeta","slots":1}])"));
}

// --- the allocation CTest hands a case ---------------------------------------------------------

TEST_F(FarmAllocation, ParseAllocationGivesTheBoardId) {
  EXPECT_EQ(parse_allocation("id:hp1,slots:1"), "hp1");
  EXPECT_EQ(parse_allocation("id:board_a,slots:1"), "board_a");
}

TEST_F(FarmAllocation, ParseAllocationRejectsOtherFormsQuotingThem) {
  for (const std::string_view value :
       {"", "hp1", "id:", "id:,slots:1", "id:hp1", "slots:1,id:hp1", "id:a,slots:1;id:b,slots:1"}) {
    SCOPED_TRACE(value);
    try {
      (void)parse_allocation(value);
      ADD_FAILURE() << "accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(contains(e.what(), "\"" + std::string(value) + "\"")) << e.what();
    }
  }
}

TEST_F(FarmAllocation, NoGroupCountMeansNoAllocation) {
  EXPECT_EQ(allocated_board(), std::nullopt);
  set_env("CTEST_RESOURCE_GROUP_COUNT", "");
  EXPECT_EQ(allocated_board(), std::nullopt) << "set but empty";
}

TEST_F(FarmAllocation, BoardsGroupGivesItsBoard) {
  set_env("CTEST_RESOURCE_GROUP_COUNT", "1");
  set_env("CTEST_RESOURCE_GROUP_0", "boards");
  set_env("CTEST_RESOURCE_GROUP_0_BOARDS", "id:hp1,slots:1");
  EXPECT_EQ(allocated_board(), "hp1");
}

TEST_F(FarmAllocation, GroupOfAnotherTypeIsSkipped) {
  set_env("CTEST_RESOURCE_GROUP_COUNT", "2");
  set_env("CTEST_RESOURCE_GROUP_0", "cpus");
  set_env("CTEST_RESOURCE_GROUP_1", "boards");
  set_env("CTEST_RESOURCE_GROUP_1_BOARDS", "id:hp0,slots:1");
  EXPECT_EQ(allocated_board(), "hp0");
}

TEST_F(FarmAllocation, OnlyGroupsOfAnotherTypeMeanNoAllocation) {
  set_env("CTEST_RESOURCE_GROUP_COUNT", "1");
  set_env("CTEST_RESOURCE_GROUP_0", "cpus");
  EXPECT_EQ(allocated_board(), std::nullopt);
}

TEST_F(FarmAllocation, BoardsGroupWithoutItsAllocationThrows) {
  set_env("CTEST_RESOURCE_GROUP_COUNT", "1");
  set_env("CTEST_RESOURCE_GROUP_0", "boards");
  try {
    (void)allocated_board();
    FAIL() << "a boards group without CTEST_RESOURCE_GROUP_0_BOARDS was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "CTEST_RESOURCE_GROUP_0_BOARDS")) << e.what();
  }
}

TEST_F(FarmAllocation, MalformedBoardsAllocationThrows) {
  set_env("CTEST_RESOURCE_GROUP_COUNT", "1");
  set_env("CTEST_RESOURCE_GROUP_0", "boards");
  set_env("CTEST_RESOURCE_GROUP_0_BOARDS", "id:a,slots:1;id:b,slots:1");
  EXPECT_THROW((void)allocated_board(), std::runtime_error);
}

// --- the board a case runs on ------------------------------------------------------------------

// A farm of two boards with default profiles; select_farm_board reads only ids and source.
farm two_board_farm() {
  farm f;
  f.source = "farms/pair.toml";
  f.boards.push_back({"hp0", "boards/a.toml", profile{}});
  f.boards.push_back({"hp1", "boards/b.toml", profile{}});
  return f;
}

TEST_F(FarmSelection, AllocatedBoardIsSelected) {
  const farm f = two_board_farm();
  set_env("CTEST_RESOURCE_GROUP_COUNT", "1");
  set_env("CTEST_RESOURCE_GROUP_0", "boards");
  set_env("CTEST_RESOURCE_GROUP_0_BOARDS", "id:hp1,slots:1");
  EXPECT_EQ(&select_farm_board(f, false), &f.boards[1]);
  EXPECT_EQ(&select_farm_board(f, true), &f.boards[1]) << "listing under an allocation";
}

TEST_F(FarmSelection, ListingWithoutAllocationTakesTheFirstBoard) {
  const farm f = two_board_farm();
  EXPECT_EQ(&select_farm_board(f, true), &f.boards[0]);
}

TEST_F(FarmSelection, RunningWithoutAllocationThrowsSayingHowToRunTheFarm) {
  const farm f = two_board_farm();
  try {
    (void)select_farm_board(f, false);
    FAIL() << "a case ran on the farm without an allocation";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "--resource-spec-file")) << e.what();
    EXPECT_TRUE(contains(e.what(), "farms/pair.toml")) << e.what();
  }
}

TEST_F(FarmSelection, AllocationOfABoardTheFarmLacksThrowsListingItsIds) {
  const farm f = two_board_farm();
  set_env("CTEST_RESOURCE_GROUP_COUNT", "1");
  set_env("CTEST_RESOURCE_GROUP_0", "boards");
  set_env("CTEST_RESOURCE_GROUP_0_BOARDS", "id:hp7,slots:1");
  try {
    (void)select_farm_board(f, false);
    FAIL() << "a board outside the farm was selected";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "\"hp7\"")) << e.what();
    EXPECT_TRUE(contains(e.what(), "hp0, hp1")) << e.what();
  }
}

}  // namespace
}  // namespace hil::profile
