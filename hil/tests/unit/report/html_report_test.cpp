#include "hil/report/html_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "report_data.hpp"

namespace hil::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class HtmlReport : public ::testing::Test {
 protected:
  std::vector<record::case_record> records_ = test::recorded_results();
  report_model model_ = build_model(records_);
  std::string html_ = render_html(records_, model_, {"Bench <A> & \"B\"", "results.jsonl", {}});
};

TEST(HtmlReportTrends, OneChartPerUnitWithALinePerMetric) {
  const auto records = test::recorded_results();
  html_options page{"t", "r.jsonl", {}};
  page.trends = {{"DutTransmits goodput", "Mbit/s", {940, 945, 850}},
                 {"DutReceives goodput", "Mbit/s", {930, 931}},
                 {"NetperfSuite TCP_RR average", "trans/s", {12000, 12100}}};
  const std::string html = render_html(records, build_model(records), page);
  EXPECT_THAT(html, HasSubstr("<section id=\"trends\">"));
  EXPECT_THAT(html, HasSubstr("Trend (Mbit/s)"));
  EXPECT_THAT(html, HasSubstr("Trend (trans/s)"));
  const auto at = html.find("<section id=\"trends\">");
  const std::string section = html.substr(at, html.find("</section>", at) - at);
  std::size_t lines = 0;
  for (auto p = section.find("<polyline"); p != std::string::npos;
       p = section.find("<polyline", p + 1)) {
    ++lines;
  }
  EXPECT_EQ(lines, 3U) << "one line per metric";
  EXPECT_THAT(render_html(records, build_model(records), {"t", "r.jsonl", {}}),
              Not(HasSubstr("id=\"trends\"")))
      << "no history, no section";
}

TEST_F(HtmlReport, HasNoExternalReferences) {
  EXPECT_THAT(html_, Not(HasSubstr("http://")));
  EXPECT_THAT(html_, Not(HasSubstr("https://")));
  EXPECT_THAT(html_, Not(HasSubstr("src=")));
  EXPECT_THAT(html_, Not(HasSubstr("href=")));
  EXPECT_THAT(html_, Not(HasSubstr("url(")));
  EXPECT_THAT(html_, Not(HasSubstr("@import")));
}

TEST_F(HtmlReport, EscapesTextFromTheResultsFile) {
  EXPECT_THAT(html_,
              HasSubstr("861.7 Mbit/s &lt;b&gt;&amp;&quot;below&quot;&lt;/b&gt; | 8.3 short"));
  EXPECT_THAT(html_, HasSubstr("check &lt;irq&gt; &amp; &quot;interrupt coalescing&quot; on the "
                               "PC&#39;s NIC"));
  EXPECT_THAT(html_, HasSubstr("<title>Bench &lt;A&gt; &amp; &quot;B&quot;</title>"));
  EXPECT_THAT(html_, Not(HasSubstr("<b>")));
  EXPECT_THAT(html_, Not(HasSubstr("<irq>")));
}

TEST_F(HtmlReport, SummaryColoursEachCheckByVerdict) {
  EXPECT_EQ(count(html_, "<span class=\"verdict pass\">pass</span>"), 13U);
  EXPECT_EQ(count(html_, "<span class=\"verdict fail\">FAIL</span>"), 2U);
  EXPECT_THAT(html_, HasSubstr("<span class=\"badge fail\">2 failed</span>"));
}

TEST_F(HtmlReport, NetperfTableListsTestsInNetperfOrder) {
  const auto at = [&](const char* test) {
    return html_.find(std::string("<td>") + test + "</td>");
  };
  EXPECT_LT(at("TCP_STREAM"), at("UDP_STREAM"));
  EXPECT_LT(at("UDP_STREAM"), at("TCP_MAERTS"));
  EXPECT_LT(at("TCP_MAERTS"), at("TCP_RR"));
  EXPECT_LT(at("TCP_RR"), at("TCP_CRR"));
  EXPECT_LT(at("TCP_CRR"), at("UDP_RR"));
  EXPECT_NE(at("UDP_RR"), std::string::npos);
}

TEST_F(HtmlReport, OnePolylinePerTcpSeriesAndIteration) {
  const auto charts = render_charts(model_);
  ASSERT_EQ(charts.size(), 7U);
  EXPECT_THAT(charts[0], HasSubstr("TCP throughput cases"));
  EXPECT_EQ(count(charts[0], "<polyline class=\"series\""), 2U);  // DutTransmits, DutReceives
  for (std::size_t i = 1; i <= 3; ++i) {
    EXPECT_EQ(count(charts[i], "<polyline class=\"series\""), 5U) << "stream test " << i;
  }
  EXPECT_THAT(charts[1], HasSubstr("TCP_STREAM iterations"));
  EXPECT_THAT(charts[2], HasSubstr("UDP_STREAM"));
  EXPECT_THAT(charts[3], HasSubstr("TCP_MAERTS"));
}

TEST_F(HtmlReport, LatencyChartsCoverRrTestsAndIdleVersusLoaded) {
  const auto charts = render_charts(model_);
  ASSERT_EQ(charts.size(), 7U);
  // 3 RR tests + idle + loaded, each p50/p90/p99/p99.9/max.
  EXPECT_EQ(count(charts[4], "<rect class=\"bar\""), 25U);
  EXPECT_THAT(charts[4], HasSubstr("log scale"));  // loaded tails are far above idle medians
  EXPECT_EQ(count(charts[5], "<polyline class=\"series\""), 5U);
  EXPECT_THAT(charts[5], HasSubstr("Latency CDF"));
  EXPECT_THAT(html_, HasSubstr("Loaded latency measured under 4 streams, 450.2 Mbit/s up, "
                               "460.1 Mbit/s down."));
}

TEST_F(HtmlReport, DatagramBarsPerMtuTier) {
  const auto charts = render_charts(model_);
  ASSERT_EQ(charts.size(), 7U);
  EXPECT_EQ(count(charts[6], "<rect class=\"bar\""), 6U);  // 3 tiers, sent and counted
  EXPECT_THAT(charts[6], HasSubstr(">MTU 3000</text>"));
}

TEST_F(HtmlReport, PageCarriesTheSelfCheckForTheBrowserTest) {
  EXPECT_EQ(count(html_, "<svg class=\"plot\""), 7U);
  EXPECT_THAT(html_, HasSubstr("setAttribute('data-rendered'"));
  EXPECT_THAT(html_, HasSubstr("Generated by hilperf-report from results.jsonl."));
}

TEST(HtmlReportSections, Rfc2544RecordsGiveTheFrameTableAndThroughputAgainstTheMaximum) {
  std::vector<record::case_record> records;
  for (const int frame : {64, 1518}) {
    record::case_record r;
    r.case_name = "Rfc2544/Throughput.ZeroLossRate/frame" + std::to_string(frame);
    r.verdict.pass = frame == 1518;
    record::frame_throughput_figures f;
    f.frame_bytes = static_cast<std::uint32_t>(frame);
    f.line_mbps = 1000;
    f.media_max_fps = 1e9 / ((frame + 20) * 8.0);
    f.throughput_fps = frame == 64 ? 600000.0 : f.media_max_fps;
    r.measured = f;
    records.push_back(r);
  }
  const auto html = render_html(records, build_model(records), {});
  EXPECT_THAT(html, HasSubstr("<section id=\"rfc2544\">\n<h2>RFC 2544 throughput</h2>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"fail\"><td>64</td><td class=\"num\">307.20</td>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"pass\"><td>1518</td>"));
  EXPECT_THAT(html, HasSubstr("Zero-loss throughput per frame size"));
  EXPECT_EQ(count(html, "<polyline class=\"series\""), 2U) << "measured and the media maximum";
}

TEST(HtmlReportSections, FrameLossAndBackToBackRecordsGiveTheirTablesAndTheLossChart) {
  std::vector<record::case_record> records;
  record::case_record loss;
  loss.case_name = "Rfc2544/FrameLoss.LossPerOfferedLoad/frame64";
  record::frame_loss_figures l;
  l.port = {64, 18, 4, 10, 14880.9, "bursts"};
  l.trials = {{14880.9, 14881, 14881, 14000, 1, false, false, true, std::nullopt, std::nullopt},
              {13392.9, 13393, 13393, 13393, 1, true, false, true, std::nullopt, std::nullopt}};
  loss.measured = l;
  records.push_back(loss);
  record::case_record burst;
  burst.case_name = "Rfc2544/BackToBack.LongestBurst/frame64";
  record::back_to_back_figures b;
  b.port = l.port;
  b.longest = {776, 776};
  b.average_frames = 776;
  burst.measured = b;
  records.push_back(burst);
  const auto html = render_html(records, build_model(records), {});
  EXPECT_THAT(html, HasSubstr("<section id=\"rfc2544-loss\">\n<h2>RFC 2544 frame loss rate</h2>"));
  EXPECT_THAT(html, HasSubstr("<td>100</td><td class=\"num\">5.920</td>"));
  EXPECT_THAT(html, HasSubstr("Frame loss rate against offered load"));
  EXPECT_THAT(html, HasSubstr("<section id=\"rfc2544-burst\">"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"fail\"><td>64</td><td class=\"num\">776</td>"));
}

TEST(HtmlReportSections, AY1564RecordGivesItsStepTableWithTheFailedStepMarked) {
  record::case_record r;
  r.case_name = "Y1564/ServiceConfiguration.StepLoad/frame512";
  record::y1564_figures f;
  f.port = {512, 466, 4, 10, 2349.6, "bursts"};
  f.cir_mbps = 8.66;
  record::y1564_step_record s;
  s.percent = 75;
  s.pass = true;
  f.steps = {s, s};
  f.steps[1].percent = 100;
  f.steps[1].pass = false;
  r.measured = f;
  const std::vector<record::case_record> records{r};
  const auto html = render_html(records, build_model(records), {});
  EXPECT_THAT(html, HasSubstr("<section id=\"y1564\">\n<h2>Y.1564 service configuration</h2>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"pass\"><td>512</td><td class=\"num\">75</td>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"fail\"><td>512</td><td class=\"num\">100</td>"));
  EXPECT_THAT(html, HasSubstr("Y.1564 defines both one way"));
}

TEST(HtmlReportSections, RunWithoutFiguresHasOnlyTheChecks) {
  const auto records = test::records_of("{\"case\":\"Link.LinkState\",\"pass\":true}\n");
  const auto html = render_html(records, build_model(records), {});
  EXPECT_THAT(html, HasSubstr("id=\"checks\""));
  EXPECT_THAT(html, Not(HasSubstr("id=\"netperf\"")));
  EXPECT_THAT(html, Not(HasSubstr("id=\"rfc2544\"")));
  EXPECT_THAT(html, Not(HasSubstr("<svg")));
}

TEST(HtmlReportSections, SkippedRrTestIsNotRunAndHasNoLatency) {
  const auto records = test::records_of(
      R"({"case":"Workload/NetperfSuite.Iterations/TCP_STREAM","pass":true,)"
      R"("figures":{"test":"TCP_STREAM","unit":"Mbit/s","iterations":[941.0],"average":941.0}})"
      "\n");
  const auto model = build_model(records);
  ASSERT_EQ(model.netperf.size(), 6U);
  EXPECT_TRUE(model.netperf[0].recorded);
  EXPECT_FALSE(model.netperf[3].recorded);
  EXPECT_TRUE(model.latency.empty());
  EXPECT_THAT(render_html(records, model, {}), HasSubstr("<td class=\"num\">not run</td>"));
}

}  // namespace
}  // namespace hil::report
