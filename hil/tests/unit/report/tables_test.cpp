#include "hil/report/tables.hpp"
#include "hil/report/frame_sweep_tables.hpp"
#include "hil/report/y1564_table.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hil/report/report_model.hpp"
#include "report_data.hpp"

namespace hil::report {
namespace {

using ::testing::HasSubstr;

class Tables : public ::testing::Test {
 protected:
  std::vector<record::case_record> records_ = test::recorded_results();
  report_model model_ = build_model(records_);
};

TEST_F(Tables, NetperfMarkdownFollowsTheNetperfPageLayout) {
  EXPECT_EQ(
      netperf_markdown(model_.netperf),
      "| test | 1 | 2 | 3 | 4 | 5 | Average | ±CI (99 %) | unit |\n"
      "|:---|---:|---:|---:|---:|---:|---:|---:|:---|\n"
      "| TCP_STREAM | 941.3 | 941.5 | 941.3 | 941.5 | 940.9 | 941.3 | ±0.5 | Mbit/s |\n"
      "| UDP_STREAM | 957.5 | 955.8 | 955.3 | 956.5 | 955.2 | 956.1 | ±2.0 (not met) | Mbit/s |\n"
      "| TCP_MAERTS | 938.3 | 938.5 | 939.2 | 937.8 | 938.8 | 938.5 | ±1.1 | Mbit/s |\n"
      "| TCP_RR | 12004.2 | 11995.5 | 11987.4 | 12012.5 | 12000.7 | 12000.1 | ±19.4 | trans/s |\n"
      "| TCP_CRR | 4230.6 | 4220.2 | 4211.5 | 4197.7 | 4200.9 | 4212.2 | ±28.0 | trans/s |\n"
      "| UDP_RR | 13466.6 | 13458.6 | 13484.6 | 13469.6 | 13495.7 | 13475.0 | ±30.7 | trans/s |\n");
}

TEST_F(Tables, NetperfDokuwikiRightAlignsTheNumbers) {
  EXPECT_EQ(
      netperf_dokuwiki(model_.netperf),
      "^ test ^ 1 ^ 2 ^ 3 ^ 4 ^ 5 ^ Average ^ ±CI (99 %) ^ unit ^\n"
      "| TCP_STREAM |  941.3 |  941.5 |  941.3 |  941.5 |  940.9 |  941.3 |  ±0.5 | Mbit/s |\n"
      "| UDP_STREAM |  957.5 |  955.8 |  955.3 |  956.5 |  955.2 |  956.1 |  ±2.0 (not met) "
      "| Mbit/s |\n"
      "| TCP_MAERTS |  938.3 |  938.5 |  939.2 |  937.8 |  938.8 |  938.5 |  ±1.1 | Mbit/s |\n"
      "| TCP_RR |  12004.2 |  11995.5 |  11987.4 |  12012.5 |  12000.7 |  12000.1 |  ±19.4 "
      "| trans/s |\n"
      "| TCP_CRR |  4230.6 |  4220.2 |  4211.5 |  4197.7 |  4200.9 |  4212.2 |  ±28.0 "
      "| trans/s |\n"
      "| UDP_RR |  13466.6 |  13458.6 |  13484.6 |  13469.6 |  13495.7 |  13475.0 |  ±30.7 "
      "| trans/s |\n");
}

TEST_F(Tables, ChecksMarkdownEscapesRecordedText) {
  const std::vector<record::case_record> two(records_.begin() + 2, records_.begin() + 4);
  EXPECT_EQ(checks_markdown(two),
            "| case | verdict | measured | limit |\n"
            "|:---|:---|:---|:---|\n"
            "| Direction/TcpThroughput.MeetsLimit/DutTransmits | pass | 941.2 Mbit/s "
            "| ≥ 940 Mbit/s |\n"
            "| Direction/TcpThroughput.MeetsLimit/DutReceives | **FAIL** "
            "| 861.7 Mbit/s &lt;b&gt;&amp;\"below\"&lt;/b&gt; \\| 8.3 short | ≥ 870 Mbit/s |\n");
}

TEST_F(Tables, ChecksDokuwikiWrapsMarkupInNowiki) {
  const std::vector<record::case_record> two(records_.begin() + 2, records_.begin() + 4);
  EXPECT_EQ(checks_dokuwiki(two),
            "^ case ^ verdict ^ measured ^ limit ^\n"
            "| Direction/TcpThroughput.MeetsLimit/DutTransmits | pass | 941.2 Mbit/s "
            "| ≥ 940 Mbit/s |\n"
            "| Direction/TcpThroughput.MeetsLimit/DutReceives | **FAIL** "
            "| %%861.7 Mbit/s <b>&\"below\"</b> | 8.3 short%% | ≥ 870 Mbit/s |\n");
}

TEST_F(Tables, DocumentsCarryTitleCountsAndBothTables) {
  const auto md = markdown_document("Bench A", records_, model_);
  EXPECT_THAT(md,
              HasSubstr("# Bench A\n\n15 recorded checks, 2 failed.\n\n## netperf\n\n| test |"));
  EXPECT_THAT(md, HasSubstr("## Checks\n\n| case | verdict | measured | limit |"));
  const auto wiki = dokuwiki_document("Bench A", records_, model_);
  EXPECT_THAT(wiki, HasSubstr("====== Bench A ======\n\n15 recorded checks, 2 failed.\n\n"
                              "===== netperf =====\n\n^ test ^"));
  EXPECT_THAT(wiki, HasSubstr("===== Checks =====\n\n^ case ^ verdict ^"));
}

TEST(TablesRows, MissingTestsReadNotRunAndShortRowsArePadded) {
  const auto records = test::records_of(
      R"({"case":"W/NetperfSuite.Iterations/TCP_RR","pass":false,"figures":{"test":"TCP_RR",)"
      R"("unit":"trans/s","iterations":[256,257,251],"average":254.7,"ci_half_width":4.2,)"
      R"("confidence_level":95,"confidence_met":false}})"
      "\n"
      R"({"case":"W/NetperfSuite.Iterations/UDP_STREAM","pass":false,"figures":{"test":"UDP_STREAM",)"
      R"("unit":"Mbit/s","iterations":[24.5]}})"
      "\n");
  EXPECT_EQ(netperf_markdown(build_model(records).netperf),
            "| test | 1 | 2 | 3 | Average | ±CI (95 %) | unit |\n"
            "|:---|---:|---:|---:|---:|---:|:---|\n"
            "| TCP_STREAM |  |  |  | not run |  |  |\n"
            "| UDP_STREAM | 24.50 |  |  | failed |  | Mbit/s |\n"
            "| TCP_MAERTS |  |  |  | not run |  |  |\n"
            "| TCP_RR | 256.0 | 257.0 | 251.0 | 254.7 | ±4.2 (not met) | trans/s |\n"
            "| TCP_CRR |  |  |  | not run |  |  |\n"
            "| UDP_RR |  |  |  | not run |  |  |\n");
}

// Rfc2544 records: 64 and 1518 bytes on a 10 Mbit/s link (64 passed at the maximum, 1518 found no
// figure: its sender fell short), and 64 bytes on a farm board's 1000 Mbit/s link.
std::vector<record::case_record> frame_records() {
  const auto make = [](int frame, double line, double max, std::optional<double> fps,
                       std::string board, std::string tool_limited) {
    record::case_record r;
    r.case_name = "Rfc2544/Throughput.ZeroLossRate/frame" + std::to_string(frame);
    r.board = std::move(board);
    r.verdict.pass = fps.has_value();
    record::frame_throughput_figures f;
    f.frame_bytes = static_cast<std::uint32_t>(frame);
    f.line_mbps = line;
    f.media_max_fps = max;
    f.throughput_fps = fps;
    f.tool_limited = std::move(tool_limited);
    r.measured = f;
    return r;
  };
  return {make(1518, 10, 812.7, std::nullopt, "", "offered 813 frames/s, sent 700"),
          make(64, 10, 14880.9, 14880.9, "", ""), make(64, 1000, 1488095.2, 612000, "bench-b", "")};
}

TEST(TablesRows, TheRfc2544TableHasARowPerFrameSizeAndColumnsPerBoardAndLinkRate) {
  const auto records = frame_records();
  const auto model = build_model(records);
  ASSERT_EQ(model.frames.size(), 3U);
  EXPECT_EQ(frames_markdown(model.frames),
            "| frame (bytes) | Mbit/s, 10 Mbit/s link | frames/s, 10 Mbit/s link | % of max, 10 "
            "Mbit/s link | Mbit/s, bench-b, 1000 Mbit/s link | frames/s, bench-b, 1000 Mbit/s "
            "link | % of max, bench-b, 1000 Mbit/s link |\n"
            "|:---|---:|---:|---:|---:|---:|---:|\n"
            "| 64 | 7.62 | 14881 | 100.0 | 313.34 | 612000 | 41.1 |\n"
            "| 1518 | sender's limit |  |  |  |  |  |\n");
  EXPECT_THAT(frames_dokuwiki(model.frames), HasSubstr("| 64 |  7.62 |  14881 |  100.0 |"));
  EXPECT_THAT(markdown_document("t", records, model), HasSubstr("## RFC 2544 throughput\n\n"));
  EXPECT_THAT(dokuwiki_document("t", records, model),
              HasSubstr("===== RFC 2544 throughput =====\n\n"));
}

TEST(TablesRows, AFigureBelowTheSendersCapReadsAsALowerBound) {
  record::case_record r;
  r.case_name = "Rfc2544/Throughput.ZeroLossRate/frame1518";
  r.verdict.pass = true;
  record::frame_throughput_figures f;
  f.frame_bytes = 1518;
  f.line_mbps = 1000;
  f.media_max_fps = 81274;
  f.throughput_fps = 77212;
  f.sender_ceiling_fps = 78100;
  r.measured = f;
  const auto model = build_model({r});
  ASSERT_EQ(model.frames.size(), 1U);
  EXPECT_THAT(frames_markdown(model.frames),
              HasSubstr("| 1518 | ≥ 937.66 | ≥ 77212 | ≥ 95.0 (sender's cap) |\n"));
}

TEST(TablesRows, ALoadItsSenderCouldNotOfferHasNoPointOnTheLossCurve) {
  record::case_record r;
  r.case_name = "Rfc2544/FrameLoss.LossPerOfferedLoad/frame1518";
  record::frame_loss_figures l;
  l.port = record::frame_port{1518, 0, 4, 10, 812.7, "bursts"};
  // 100 %: short without loss three times (not offered); 90 % and 80 %: loss-free.
  const record::frame_trial_record capped{812.7, 790, 790, 790, 1, false, false, false, {}, {}};
  l.trials = {capped,
              capped,
              capped,
              {731.4, 731.4, 731, 731, 1, true, false, true, std::nullopt, std::nullopt},
              {650.2, 650.2, 650, 650, 1, true, false, true, std::nullopt, std::nullopt}};
  l.sender_ceiling_fps = 790;
  r.measured = l;
  const auto model = build_model({r});
  ASSERT_EQ(model.losses.size(), 1U);
  EXPECT_EQ(grid_markdown(loss_grid(model.losses), false),
            "| offered load (% of max) | frame1518 loss (%) |\n"
            "|:---|---:|\n"
            "| 90 | 0.000 |\n"
            "| 80 | 0.000 |\n");
}

// Rfc2544 frame loss and back-to-back records on a 10 Mbit/s link: 64 bytes loss-free from the
// top, 1518 bytes losing at 100 % and measured again at 90 %; 64 bytes' bursts whole, 1518's
// short and sent below line rate.
std::vector<record::case_record> sweep_records() {
  std::vector<record::case_record> out;
  const auto port = [](std::uint32_t frame, double max) {
    return record::frame_port{frame, 0, 4, 10, max, "bursts"};
  };
  record::case_record loss;
  loss.case_name = "Rfc2544/FrameLoss.LossPerOfferedLoad/frame1518";
  record::frame_loss_figures l;
  l.port = port(1518, 812.7);
  l.trials = {{812.7, 812.7, 813, 800, 1, false, false, true, std::nullopt, std::nullopt},
              {731.4, 731.4, 731, 731, 1, true, false, true, std::nullopt, std::nullopt},
              {731.4, 731.4, 731, 730, 1, false, false, true, std::nullopt, std::nullopt},
              {650.2, 650.2, 650, 650, 1, true, false, true, std::nullopt, std::nullopt}};
  loss.measured = l;
  out.push_back(loss);
  loss.case_name = "Rfc2544/FrameLoss.LossPerOfferedLoad/frame64";
  l.port = port(64, 14880.9);
  l.trials = {{14880.9, 14881, 14881, 14881, 1, true, false, true, std::nullopt, std::nullopt},
              {13392.9, 13393, 13393, 13393, 1, true, false, true, std::nullopt, std::nullopt}};
  loss.verdict.pass = true;
  loss.measured = l;
  out.push_back(loss);
  for (const std::uint32_t frame : {64U, 1518U}) {
    record::case_record burst;
    burst.case_name = "Rfc2544/BackToBack.LongestBurst/frame" + std::to_string(frame);
    burst.verdict.pass = frame == 64;
    record::back_to_back_figures b;
    b.port = port(frame, frame == 64 ? 14880.9 : 812.7);
    b.longest =
        frame == 64 ? std::vector<std::uint64_t>{29762, 29762} : std::vector<std::uint64_t>{33, 34};
    b.average_frames = frame == 64 ? 29762 : 33.5;
    b.spread_frames = frame == 64 ? 0 : 0.7;
    b.bursts = {{b.longest[0], 0, b.longest[0], frame == 64 ? 14880.9 : 700, true, frame == 64}};
    burst.measured = b;
    out.push_back(burst);
  }
  return out;
}

TEST(TablesRows, TheFrameLossTableHasARowPerLoadAndTheBackToBackTableARowPerFrameSize) {
  const auto records = sweep_records();
  const auto model = build_model(records);
  ASSERT_EQ(model.losses.size(), 2U);
  EXPECT_EQ(model.losses[0].frame, 64) << "rising frame size";
  EXPECT_EQ(grid_markdown(loss_grid(model.losses), false),
            "| offered load (% of max) | frame64 loss (%) | frame1518 loss (%) |\n"
            "|:---|---:|---:|\n"
            "| 100 | 0.000 | 1.599 |\n"
            "| 90 | 0.000 | 0.137 |\n"
            "| 80 |  | 0.000 |\n")
      << "90 %'s last measurement counts";
  EXPECT_EQ(grid_markdown(burst_grid(model.bursts), false),
            "| frame (bytes) | longest burst (frames), 10 Mbit/s link | spread (frames), 10 Mbit/s "
            "link | s at line rate, 10 Mbit/s link |\n"
            "|:---|---:|---:|---:|\n"
            "| 64 | 29762 | 0.0 | 2.000 |\n"
            "| 1518 | 34 (sender below line rate) | 0.7 | 0.041 |\n");
  EXPECT_THAT(markdown_document("t", records, model),
              HasSubstr("## RFC 2544 frame loss rate\n\n| offered load"));
  EXPECT_THAT(dokuwiki_document("t", records, model),
              HasSubstr("===== RFC 2544 back-to-back =====\n\n^ frame (bytes) ^"));
}

TEST(TablesRows, TheLatencyTableHasARowPerFrameSizeAndSaysHowItDiffersFromTheRfc) {
  record::case_record r;
  r.case_name = "Rfc2544/Latency.RoundTripAtFloor/frame64";
  record::frame_latency_figures f;
  f.port = {64, 18, 4, 10, 14880.9, "bursts"};
  f.load_percent = 95;
  f.probes_sent = 160;
  f.probes_received = 159;
  f.round_trip.summary.p50_us = 150;
  f.round_trip.summary.p99_us = 900;
  f.round_trip.summary.max_us = 1234.5;
  r.measured = f;
  const std::vector<record::case_record> records{r};
  const auto model = build_model(records);
  ASSERT_EQ(model.frame_latency.size(), 1U);
  EXPECT_EQ(grid_markdown(frame_latency_grid(model.frame_latency), false),
            "| frame (bytes) | load (% of max), 10 Mbit/s link | round trip p50 (ms), 10 Mbit/s "
            "link | p99 (ms), 10 Mbit/s link | max (ms), 10 Mbit/s link | probes answered, 10 "
            "Mbit/s link |\n"
            "|:---|---:|---:|---:|---:|---:|\n"
            "| 64 | 95.0 | 0.150 | 0.900 | 1.234 | 159/160 |\n");
  EXPECT_THAT(markdown_document("t", records, model),
              HasSubstr("## RFC 2544 latency\n\n| frame (bytes)"));
  EXPECT_THAT(markdown_document("t", records, model), HasSubstr(frame_latency_note));
}

// A Y1564 record of two steps, the second failed, for the board and link rate given.
record::case_record service_record(const std::string& board, double line_mbps) {
  record::case_record r;
  r.case_name = "Y1564/ServiceConfiguration.StepLoad/frame512";
  r.board = board;
  record::y1564_figures f;
  f.port = {512, 466, 4, line_mbps, 2349.6, "bursts"};
  f.cir_mbps = 8.66;
  record::y1564_step_record s;
  s.percent = 50;
  s.offered_mbps = 4.33;
  s.ir_mbps = 4.3294;
  s.ftd_ms = 0.0814;
  s.fdv_ms = 0.41;
  s.pass = true;
  s.probes_sent = 80;
  s.probes_received = 80;
  f.steps = {s, s};
  f.steps[1].percent = 100;
  f.steps[1].offered_mbps = 8.66;
  f.steps[1].flr_percent = 12.5;
  f.steps[1].pass = false;
  f.steps[1].probes_received = 70;
  r.measured = f;
  return r;
}

TEST(TablesRows, TheY1564TableHasARowPerStepAndSaysHowItsDelaysDifferFromTheRecommendation) {
  const std::vector<record::case_record> records{service_record("", 10)};
  const auto model = build_model(records);
  ASSERT_EQ(model.services.size(), 1U);
  EXPECT_EQ(grid_markdown(y1564_grid(model.services), true),
            "| frame (bytes) | step (% of CIR) | offered (Mbit/s) | IR (Mbit/s) | FLR (%) | FTD "
            "(ms) | FDV (ms) | probes answered | step |\n"
            "|:---|---:|---:|---:|---:|---:|---:|---:|:---|\n"
            "| 512 | 50 | 4.330 | 4.329 | 0.000 | 0.081 | 0.410 | 80/80 | pass |\n"
            "| 512 | 100 | 8.660 | 4.329 | 12.500 | 0.081 | 0.410 | 70/80 | fail |\n");
  EXPECT_THAT(markdown_document("t", records, model),
              HasSubstr("## Y.1564 service configuration\n\n| frame (bytes)"));
  EXPECT_THAT(markdown_document("t", records, model), HasSubstr(y1564_note));
  EXPECT_THAT(dokuwiki_document("t", records, model),
              HasSubstr("===== Y.1564 service configuration =====\n\n^ frame (bytes) ^"));
}

TEST(TablesRows, TheY1564TableNamesThePortWhenTheResultsHoldSeveral) {
  const std::vector<record::case_record> records{service_record("board-a", 1000),
                                                 service_record("", 10)};
  const auto g = y1564_grid(build_model(records).services);
  ASSERT_EQ(g.rows.size(), 4U);
  EXPECT_EQ(g.header.front(), "port");
  EXPECT_EQ(g.rows[0][0], "10 Mbit/s link");
  EXPECT_EQ(g.rows[2][0], "board-a, 1000 Mbit/s link");
}

TEST(TablesRows, EachFramePathHasItsOwnColumnGroupAndTheRecordKeepsIt) {
  auto records = frame_records();
  records.resize(2);  // the 10 Mbit/s link's 1518 and 64 bytes, the DUT sending
  auto receives = records[1];
  receives.case_name += "_ipv6_dut_receives";
  auto& f = std::get<record::frame_throughput_figures>(receives.measured);
  f.direction = "dut_receives";
  f.ip_version = 6;
  f.throughput_fps = 7'440.5;
  records.push_back(receives);
  const auto g = frame_grid(build_model(records).frames);
  ASSERT_EQ(g.header.size(), 7U);
  EXPECT_EQ(g.header[1], "Mbit/s, 10 Mbit/s link");
  EXPECT_EQ(g.header[4], "Mbit/s, 10 Mbit/s link, IPv6, DUT receives");
  ASSERT_EQ(g.rows.size(), 2U);
  EXPECT_EQ(g.rows[0][3], "100.0");
  EXPECT_EQ(g.rows[0][6], "50.0") << "the receiving path's own figure, not merged";
  EXPECT_EQ(g.rows[1][4], "") << "no 1518-byte row on that path";
}

TEST(TablesRows, RunWithoutNetperfRecordsHasNoNetperfTable) {
  const auto records = test::records_of(R"({"case":"Link.LinkState","pass":true})"
                                        "\n");
  const auto model = build_model(records);
  EXPECT_TRUE(model.netperf.empty());
  EXPECT_EQ(netperf_markdown(model.netperf), "");
  EXPECT_THAT(markdown_document("t", records, model), ::testing::Not(HasSubstr("netperf")));
  EXPECT_THAT(markdown_document("t", records, model), ::testing::Not(HasSubstr("RFC 2544")));
}

TEST(ConsoleSummary, KeepsTheFixedWidthLayoutWithMultibyteText) {
  const auto records = test::records_of(
      R"({"case":"A.B","pass":true,"observed":"941.2 Mbit/s","limit":"≥ 940 Mbit/s"})"
      "\n"
      R"({"case":"A.C","pass":false,"observed":"µµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµ"})"
      "\n");
  const auto text = console_summary(records);
  EXPECT_THAT(text, HasSubstr("| 941.2 Mbit/s                                     "
                              "| ≥ 940 Mbit/s                             |\n"));
  EXPECT_THAT(
      text, HasSubstr("| FAIL              | µµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµµ... |"));
  EXPECT_THAT(text, HasSubstr("\n2 recorded checks, 1 failed\n"));
}

TEST(ConsoleSummary, SkippedCasesAreNotFailuresAndAttemptsAreShown) {
  const auto records = test::records_of(
      R"({"case":"A.Skip","skipped":true,"reason":"jumbo tier 9000 is off"})"
      "\n"
      R"({"case":"A.Retry","pass":true,"observed":"950.1 Mbit/s","attempt_count":2,)"
      R"("attempts_summary":"passed on attempt 2; attempt 1 failed disturbed: 31.0 % CPU"})"
      "\n");
  const auto text = console_summary(records);
  EXPECT_THAT(text, HasSubstr("| skipped           | jumbo tier 9000 is off"));
  EXPECT_THAT(text, HasSubstr("| pass, attempt 2   | 950.1 Mbit/s (passed on attempt 2; "));
  EXPECT_THAT(text, HasSubstr("\n2 recorded checks, 0 failed\n"));
  EXPECT_THAT(
      markdown_document("t", records, build_model(records)),
      HasSubstr("| A.Retry | pass, attempt 2 | 950.1 Mbit/s (passed on attempt 2; attempt 1 "
                "failed disturbed: 31.0 % CPU) |"));
}

}  // namespace
}  // namespace hil::report
