// The nightly history (hil/report/history.hpp): which figures are headline metrics, the
// direction-aware comparison with the median of earlier runs, and the history directory.
#include "hil/report/history.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "hil/tests/temp_dir.hpp"

namespace hil::report {
namespace {

record::case_record passed(const std::string& name, record::figures f) {
  record::case_record r;
  r.case_name = name;
  r.verdict.pass = true;
  r.measured = std::move(f);
  return r;
}

record::throughput_figures throughput(double mbps) {
  record::throughput_figures f;
  f.direction = "dut_transmits";
  f.goodput_mbps = mbps;
  return f;
}

record::latency_under_load_figures loaded_p99(double us) {
  record::latency_under_load_figures f;
  f.loaded.summary.p99_us = us;
  return f;
}

std::vector<metric_value> goodput(double mbps) {
  return run_metrics({passed("Direction/TcpThroughput.MeetsLimit/DutTransmits", throughput(mbps))});
}

std::vector<history_run> runs_of(std::initializer_list<double> values) {
  std::vector<history_run> out;
  for (const double v : values) out.push_back({"r", goodput(v)});
  return out;
}

TEST(History, HeadlineMetricsAndTheirDirection) {
  record::netperf_figures rr;
  rr.test = "TCP_RR";
  rr.unit = "trans/s";
  rr.average = 12000.5;
  const auto m =
      run_metrics({passed("Direction/TcpThroughput.MeetsLimit/DutTransmits", throughput(941.5)),
                   passed("Workload/NetperfSuite.Iterations/TCP_RR", rr),
                   passed("LatencyUnderLoad.P99WithinLimit", loaded_p99(8500.0)),
                   passed("Link.LinkSpeed", record::link_figures{"eth0"})});
  ASSERT_EQ(m.size(), 4U);
  EXPECT_EQ(m[0].name, "Direction/TcpThroughput.MeetsLimit/DutTransmits goodput");
  EXPECT_DOUBLE_EQ(m[0].value, 941.5);
  EXPECT_TRUE(m[0].higher_is_better);
  EXPECT_EQ(m[1].name, "NetperfSuite TCP_RR average");
  EXPECT_EQ(m[1].unit, "trans/s");
  EXPECT_EQ(m[2].name, "LatencyUnderLoad.P99WithinLimit loaded p99");
  EXPECT_FALSE(m[2].higher_is_better) << "latency: lower is better";
  EXPECT_EQ(m[3].name, "extra attempts");
  EXPECT_DOUBLE_EQ(m[3].value, 0);
  EXPECT_FALSE(m[3].judged);
}

TEST(History, ExtraAttemptsAreCountedAndShownButNeverARegression) {
  auto with_attempts = [](int a, int b) {
    auto x =
        passed("Direction/TcpRetransmits.WithinLimitPerInterval", record::retransmit_figures{});
    x.attempts.resize(a);
    auto y = passed("MtuTier/UdpZeroLoss.NoDatagramLost/mtu576", record::udp_tier_figures{});
    y.attempts.resize(b);
    return run_metrics({x, y});
  };
  const auto m = with_attempts(3, 2);
  ASSERT_EQ(m.size(), 1U);
  EXPECT_DOUBLE_EQ(m[0].value, 3) << "two beyond the first, and one";
  const std::vector<history_run> baseline{{"a", with_attempts(1, 2)}, {"b", with_attempts(1, 2)}};
  const auto c = compare_with_history(m, baseline, 5.0);
  ASSERT_EQ(c.size(), 1U);
  EXPECT_NEAR(c[0].change_percent, 200.0, 0.01);
  EXPECT_FALSE(c[0].regression);
  EXPECT_THAT(format_changes(c, 5.0), ::testing::HasSubstr("| shown "));
}

TEST(History, ATenPercentDropRegressesARiseDoesNot) {
  const auto baseline = runs_of({950, 940, 945});  // median 945
  const auto drop = compare_with_history(goodput(850.5), baseline, 5.0);
  ASSERT_EQ(drop.size(), 2U) << "goodput and extra attempts";
  EXPECT_DOUBLE_EQ(drop[0].baseline, 945);
  EXPECT_NEAR(drop[0].change_percent, -10.0, 0.01);
  EXPECT_TRUE(drop[0].regression);
  const auto rise = compare_with_history(goodput(1039.5), baseline, 5.0);
  EXPECT_NEAR(rise[0].change_percent, 10.0, 0.01);
  EXPECT_FALSE(rise[0].regression) << "a throughput rise is an improvement";
  EXPECT_FALSE(compare_with_history(goodput(900), baseline, 5.0)[0].regression)
      << "-4.8 % is within the 5 % tolerance";
}

TEST(History, LatencyRegressesUpwards) {
  auto loaded = [](double p99) {
    return run_metrics({passed("LatencyUnderLoad.P99WithinLimit", loaded_p99(p99))});
  };
  const std::vector<history_run> baseline{{"a", loaded(1000)}, {"b", loaded(1000)}};
  EXPECT_TRUE(compare_with_history(loaded(1100), baseline, 5.0)[0].regression);
  EXPECT_FALSE(compare_with_history(loaded(900), baseline, 5.0)[0].regression);
}

TEST(History, MetricsWithoutABaselineAreLeftOut) {
  EXPECT_TRUE(compare_with_history(goodput(900), {}, 5.0).empty());
}

TEST(History, ParallelStreamsAndBothWaysAtOnceHaveTheirOwnNames) {
  auto parallel = throughput(1800);
  parallel.streams = 4;
  auto both = throughput(1700);
  both.out_mbps = 850;
  both.in_mbps = 850;
  const auto m = run_metrics({passed("ParallelStreams.SummedGoodput", parallel),
                              passed("Bidirectional.BothWaysAtOnce", both)});
  ASSERT_EQ(m.size(), 4U);
  EXPECT_EQ(m[0].name, "ParallelStreams.SummedGoodput sum");
  EXPECT_EQ(m[1].name, "Bidirectional.BothWaysAtOnce out");
  EXPECT_EQ(m[2].name, "Bidirectional.BothWaysAtOnce in");
}

// A history kept by an earlier hilperf (schema 1 records, figures named per case) still gives
// the same metric names, so a board's trend continues across the upgrade.
TEST(History, StoresAndLoadsTheLastRunsOldestFirst) {
  const hil::test::temp_dir tmp("hilperf-history");
  const auto results = tmp.path() / "hil-results.jsonl";
  for (const auto& [id, mbps] : std::vector<std::pair<std::string, double>>{
           {"20261201T020000Z", 930}, {"20261130T020000Z", 920}, {"20261202T020000Z", 940}}) {
    std::ofstream(results) << nlohmann::json{{"case",
                                              "Direction/TcpThroughput.MeetsLimit/DutTransmits"},
                                             {"pass", true},
                                             {"figures", {{"goodput_mbps", mbps}}}}
                                  .dump()
                           << '\n';
    store_run(tmp.path() / "history", id, results);
  }
  const auto runs = load_history(tmp.path() / "history", 2);
  ASSERT_EQ(runs.size(), 2U);
  EXPECT_EQ(runs[0].id, "20261201T020000Z");
  EXPECT_EQ(runs[1].id, "20261202T020000Z");
  EXPECT_DOUBLE_EQ(runs[1].metrics.at(0).value, 940);
  EXPECT_TRUE(load_history(tmp.path() / "nowhere", 5).empty());
}

TEST(History, KeepsTheLinesOfOneBoard) {
  std::istringstream in(R"({"case":"A.B","board":"hp1"})"
                        "\n\n"
                        R"({"case":"A.C","board":"hp2"})"
                        "\n"
                        R"({"case":"A.D","board":"hp1"})"
                        "\n");
  EXPECT_EQ(board_lines(in, "hil-results.jsonl", "hp1"),
            "{\"case\":\"A.B\",\"board\":\"hp1\"}\n{\"case\":\"A.D\",\"board\":\"hp1\"}\n");
}

// Found by fuzz/results_file.cpp: a board that is no string ended store_run with nlohmann's
// type_error. The board is now the record reader's (schema 1 reads a scalar as its text), and a
// line the reader refuses is named by its number.
TEST(History, TheBoardOfALineIsTheRecordReadersAndABadLineIsNamed) {
  std::istringstream legacy(R"({"board":true})"
                            "\n");
  EXPECT_EQ(board_lines(legacy, "hil-results.jsonl", "true"), "{\"board\":true}\n");
  std::istringstream bad(R"({"case":"A.B","board":"hp1"})"
                         "\n"
                         R"({"schema":2,"case":"A.C","board":1})"
                         "\n");
  try {
    (void)board_lines(bad, "hil-results.jsonl", "hp1");
    FAIL() << "a line the record reader refuses must be refused";
  } catch (const record::results_format_error& e) {
    EXPECT_EQ(e.line(), 2U);
    EXPECT_THAT(e.what(), ::testing::HasSubstr("hil-results.jsonl:2: "));
  }
}

}  // namespace
}  // namespace hil::report
