#include "hil/report/svg_plot.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace hil::report {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SvgPlot, LinearTicksAreNiceNumbersCoveringTheRange) {
  EXPECT_THAT(linear_ticks(0, 941.3), ElementsAre(0, 200, 400, 600, 800, 1000));
  EXPECT_THAT(linear_ticks(1, 10), ElementsAre(0, 2, 4, 6, 8, 10));
  EXPECT_THAT(linear_ticks(0, 1), ElementsAre(0, 0.2, 0.4, 0.6000000000000001, 0.8, 1));
}

TEST(SvgPlot, LogTicksArePowersOfTenAroundTheRange) {
  EXPECT_THAT(log_ticks(42.9, 5034.1), ElementsAre(10, 100, 1000, 10000));
  EXPECT_THAT(log_ticks(100, 100), ElementsAre(100, 1000));
}

TEST(SvgPlot, TickLabelsAreCompact) {
  EXPECT_EQ(tick_label(0), "0");
  EXPECT_EQ(tick_label(0.5), "0.5");
  EXPECT_EQ(tick_label(941.25), "941.2");
  EXPECT_EQ(tick_label(12000), "12k");
  EXPECT_EQ(tick_label(1.5e6), "1.5M");
}

TEST(SvgPlot, AnIntegerAxisTicksOnlyWholeNumbers) {
  // Two-interval runs: the interval axis must not read 1, 1.2, 1.4 …
  line_chart c{"t", {"interval", false, false, true}, {"Mbit/s", false, false}, {}};
  c.series.push_back({"run", {{1, 950}, {2, 955}}});
  const std::string svg = render_line_chart(c);
  EXPECT_THAT(svg, Not(HasSubstr(">1.2<")));
  EXPECT_THAT(svg, HasSubstr(">1<"));
  EXPECT_THAT(svg, HasSubstr(">2<"));
  c.x.integer = false;
  EXPECT_THAT(render_line_chart(c), HasSubstr(">1.2<")) << "the control: a plain axis does";
}

TEST(SvgPlot, LineChartHasOnePolylinePerSeriesAndALegendEntryEach) {
  line_chart c{"t", {"interval", false, false}, {"Mbit/s", false, true}, {}};
  c.series.push_back({"a", {{1, 940}, {2, 941}, {3, 939}}});
  c.series.push_back({"b", {{1, 860}, {2, 812}}});
  const auto svg = render_line_chart(c);
  EXPECT_EQ(count(svg, "<polyline class=\"series\""), 2U);
  EXPECT_EQ(count(svg, "class=\"legend-entry\""), 2U);
  EXPECT_EQ(count(svg, "<circle class=\"marker\""), 5U);
  EXPECT_THAT(svg, HasSubstr(">1000</text>"));  // the y axis reaches the next nice tick
  EXPECT_THAT(svg, Not(HasSubstr("http")));
}

TEST(SvgPlot, AxisThatNeedNotStartAtZeroSpansTheData) {
  line_chart c{"t", {"interval", false, false}, {"Mbit/s", false, false}, {}};
  c.series.push_back({"a", {{1, 939.6}, {2, 942.4}}});
  const auto svg = render_line_chart(c);
  EXPECT_THAT(svg, HasSubstr(">939</text>"));
  EXPECT_THAT(svg, HasSubstr(">943</text>"));
  EXPECT_THAT(svg, Not(HasSubstr(">0</text>")));
}

TEST(SvgPlot, LogAxisDropsPointsItCannotShow) {
  line_chart c{"cdf",
               {"us", true, false},
               {"fraction", false, true},
               {{"a", {{0, 0.1}, {50, 0.5}, {90, 1}}}}};
  const auto svg = render_line_chart(c);
  EXPECT_EQ(count(svg, "<circle class=\"marker\""), 2U);
  EXPECT_THAT(svg, HasSubstr(">10</text>"));
  EXPECT_THAT(svg, HasSubstr(">100</text>"));
}

TEST(SvgPlot, BarChartDrawsABarPerValueAndSkipsMissingOnes) {
  bar_chart c{"counts", {"datagrams", false, true}, {"MTU 576", "MTU 1500"}, {}};
  c.series.push_back({"sent", {114051.0, 42459.0}});
  c.series.push_back({"counted", {std::nullopt, 42459.0}});
  const auto svg = render_bar_chart(c);
  EXPECT_EQ(count(svg, "<rect class=\"bar\""), 3U);
  EXPECT_THAT(svg, HasSubstr(">MTU 1500</text>"));
}

TEST(SvgPlot, LabelsAreEscaped) {
  bar_chart c{"<b>&\"x\"", {"y", false, true}, {"<cat>"}, {{"s&t", {1.0}}}};
  const auto svg = render_bar_chart(c);
  EXPECT_THAT(svg, HasSubstr("&lt;b&gt;&amp;&quot;x&quot;"));
  EXPECT_THAT(svg, HasSubstr("&lt;cat&gt;"));
  EXPECT_THAT(svg, HasSubstr("s&amp;t"));
  EXPECT_THAT(svg, Not(HasSubstr("<b>")));
}

TEST(SvgPlot, ChartWithoutDataSaysSo) {
  const auto svg = render_line_chart({"empty", {}, {}, {}});
  EXPECT_THAT(svg, HasSubstr("no data"));
  EXPECT_EQ(count(svg, "<polyline"), 0U);
}

}  // namespace
}  // namespace hil::report
