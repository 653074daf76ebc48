// The history store (hil/history): locations, runs as the store keeps them, the SQLite and
// directory engines behind one interface, and the spool of runs whose upload failed. The
// PostgreSQL engine is tested against a real server by db.report.history_postgresql.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "hil/history/import.hpp"
#include "hil/history/spool.hpp"
#include "hil/history/store.hpp"
#include "hil/tests/temp_dir.hpp"

namespace hil::history {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

record::case_record throughput_case(const std::string& name, double mbps, int attempts = 1) {
  record::case_record r;
  r.case_name = name;
  r.verdict.pass = true;
  record::throughput_figures f;
  f.direction = "dut_transmits";
  f.goodput_mbps = mbps;
  r.measured = f;
  for (int i = 0; i < attempts && attempts > 1; ++i) r.attempts.emplace_back();
  return r;
}

// A run of one goodput figure, started at started.
run_entry goodput_run(double mbps, const std::string& started, const std::string& board = {}) {
  run_entry run =
      new_run({throughput_case("Direction/TcpThroughput.MeetsLimit/DutTransmits", mbps)}, board);
  run.started = started;
  run.key = "key-" + started;
  return run;
}

TEST(HistoryLocation, ReadsEachEngine) {
  EXPECT_EQ(parse_location("sqlite:h.db", "/etc/hilperf").kind, engine::sqlite);
  EXPECT_EQ(parse_location("sqlite:h.db", "/etc/hilperf").target, "/etc/hilperf/h.db");
  EXPECT_EQ(parse_location("sqlite:/var/h.db", "/etc/hilperf").target, "/var/h.db");
  EXPECT_EQ(parse_location("dir:runs", "/p").target, "/p/runs");
  EXPECT_EQ(parse_location("history", "").target, "history");  // a bare path: a directory
  EXPECT_EQ(parse_location("history", "").kind, engine::directory);
  const auto pg = parse_location("postgresql://ci@db.lab:5433/hilperf", "/p");
  EXPECT_EQ(pg.kind, engine::postgresql);
  EXPECT_EQ(describe(pg), "postgresql://ci@db.lab:5433/hilperf");
}

TEST(HistoryLocation, RefusesPasswordsAndUnknownSchemes) {
  EXPECT_THROW((void)parse_location("postgresql://ci:secret@db/hilperf", ""),
               std::invalid_argument);
  EXPECT_THROW((void)parse_location("postgresql://ci@db/hilperf?password=x", ""),
               std::invalid_argument);
  EXPECT_THROW((void)parse_location("mysql://ci@db/hilperf", ""), std::invalid_argument);
  try {
    (void)parse_location("postgres://ci:secret@db/h", "");
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), ::testing::Not(::testing::HasSubstr("secret")));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("PGPASSWORD"));
  }
}

TEST(HistoryRun, FiguresAreTheComparedMetrics) {
  const std::vector<record::case_record> records{throughput_case("A/B.C/D", 941.25, 3),
                                                 throughput_case("A/B.C/E", 0.1 + 0.2)};
  const auto rows = figure_rows(records);
  const auto metrics = report::run_metrics(records);
  ASSERT_EQ(rows.size(), metrics.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].figure.name, metrics[i].name);
    EXPECT_EQ(rows[i].figure.value, metrics[i].value);
  }
  EXPECT_EQ(rows[0].case_name, "A/B.C/D");
  EXPECT_EQ(rows[0].attempts, 3);
  EXPECT_EQ(rows.back().case_name, "");  // extra attempts: the run's own
}

TEST(HistoryRun, TimesAndJsonRoundTrip) {
  EXPECT_EQ(started_of_id("20261130T020000Z"), "2026-11-30T02:00:00.000000Z");
  EXPECT_EQ(id_of_started("2026-11-30T02:00:00.123456Z"), "20261130T020000Z");
  EXPECT_EQ(started_of_id("latest"), "");
  run_entry run = goodput_run(0.1 + 0.2, started_now(), "ba");
  run.software_version = "bsp-1.2";
  const run_entry back = run_from_json(nlohmann::json::parse(to_json(run).dump()));
  EXPECT_EQ(back.key, run.key);
  EXPECT_EQ(back.board, "ba");
  EXPECT_EQ(back.software_version, "bsp-1.2");
  ASSERT_EQ(back.figures.size(), run.figures.size());
  EXPECT_EQ(back.figures[0].figure.value, 0.1 + 0.2);  // exactly
}

TEST(HistorySqlite, KeepsRunsExactlyAndOnce) {
  const test::temp_dir tmp("hilperf-history");
  const auto s = open_store(parse_location("sqlite:h.sqlite", tmp.path()));
  EXPECT_TRUE(s->add_run(goodput_run(0.1 + 0.2, "2026-11-27T02:00:00.000000Z")));
  EXPECT_TRUE(s->add_run(goodput_run(940, "2026-11-28T02:00:00.000000Z")));
  EXPECT_TRUE(s->add_run(goodput_run(945, "2026-11-29T02:00:00.000000Z")));
  EXPECT_FALSE(s->add_run(goodput_run(945, "2026-11-29T02:00:00.000000Z")));  // same key
  const auto runs = s->last_runs("", 2);
  ASSERT_EQ(runs.size(), 2U);
  EXPECT_EQ(runs[0].id, "key-2026-11-28T02:00:00.000000Z");  // oldest first
  EXPECT_EQ(runs[1].metrics[0].value, 945);
  EXPECT_EQ(s->last_runs("", 10).front().metrics[0].value, 0.1 + 0.2);
  EXPECT_TRUE(s->last_runs("other", 10).empty());
  EXPECT_EQ(s->figures_since("", "2026-11-28").size(), 4U);  // 2 runs, goodput + extra attempts
  EXPECT_THAT(s->boards(), ElementsAre(""));
  // Opened again: the schema is there, nothing migrates twice.
  EXPECT_EQ(open_store(parse_location("sqlite:h.sqlite", tmp.path()))->last_runs("", 10).size(),
            3U);
}

TEST(HistorySqlite, ImportsADirectoryOnce) {
  const test::temp_dir tmp("hilperf-history");
  fs::create_directories(tmp.path() / "dir" / "ba");
  const std::string line =
      R"({"case":"Direction/TcpThroughput.MeetsLimit/DutTransmits","check":"TcpThroughput",)"
      R"("pass":true,"board":"ba","figures":{"goodput_mbps":"945.5"}})";
  for (const char* id : {"20261127T020000Z", "20261128T020000Z"})
    std::ofstream(tmp.path() / "dir" / "ba" / (std::string(id) + ".jsonl")) << line << '\n';
  const auto s = open_store(parse_location("sqlite:h.sqlite", tmp.path()));
  const auto first = import_directory(tmp.path() / "dir", *s, "");
  EXPECT_EQ(first.added, 2U);
  const auto again = import_directory(tmp.path() / "dir", *s, "");
  EXPECT_EQ(again.added, 0U);
  EXPECT_EQ(again.present, 2U);
  const auto runs = s->last_runs("ba", 5);
  ASSERT_EQ(runs.size(), 2U);
  EXPECT_EQ(runs[0].id, "dir:20261127T020000Z");
  // The same figures as the directory gives the comparison.
  const auto dir_runs =
      open_store(parse_location(tmp.path().string() + "/dir", ""))->last_runs("ba", 5);
  ASSERT_EQ(dir_runs.size(), 2U);
  EXPECT_EQ(dir_runs[1].metrics[0].value, runs[1].metrics[0].value);
  EXPECT_EQ(dir_runs[1].metrics[0].name, runs[1].metrics[0].name);
}

TEST(HistorySpool, KeepsARunUntilItIsUploaded) {
  const test::temp_dir tmp("hilperf-history");
  const auto where = parse_location("sqlite:h.sqlite", tmp.path());
  const run_entry run = goodput_run(945, "2026-11-29T02:00:00.000000Z", "ba");
  const fs::path kept = keep_run(tmp.path() / "spool", describe(where), run);
  keep_run(tmp.path() / "spool", "postgresql://ci@elsewhere/h", goodput_run(1, "2026-11-30"));
  EXPECT_TRUE(fs::exists(kept));
  const auto s = open_store(where);
  const auto uploaded = upload_kept(tmp.path() / "spool", describe(where), *s);
  ASSERT_EQ(uploaded.size(), 1U);
  EXPECT_EQ(uploaded[0].key, run.key);
  EXPECT_TRUE(uploaded[0].added);
  EXPECT_FALSE(fs::exists(kept));
  EXPECT_EQ(s->last_runs("ba", 5).size(), 1U);
  // The other store's run stays kept.
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path() / "spool"), fs::directory_iterator()),
            1);
}

}  // namespace
}  // namespace hil::history
