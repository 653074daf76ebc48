#include "hil/report/markup.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace hil::report {
namespace {

TEST(Markup, HtmlEscapesEveryCharacterWithMeaning) {
  EXPECT_EQ(escape_html(R"(<b>&"it's"</b>)"), "&lt;b&gt;&amp;&quot;it&#39;s&quot;&lt;/b&gt;");
  EXPECT_EQ(escape_html("941.2 Mbit/s"), "941.2 Mbit/s");
}

TEST(Markup, MarkdownEscapesTableAndInlineMarkup) {
  EXPECT_EQ(escape_markdown("a|b*c`d[e]\\f"), "a\\|b\\*c\\`d\\[e\\]\\\\f");
  EXPECT_EQ(escape_markdown("<b>&"), "&lt;b&gt;&amp;");
  EXPECT_EQ(escape_markdown("TCP_RR _x_"), "TCP_RR \\_x\\_");  // inside a word it stays
  EXPECT_EQ(escape_markdown("two\nlines"), "two lines");
}

TEST(Markup, DokuwikiWrapsOnlyTextWithMarkup) {
  EXPECT_EQ(escape_dokuwiki("Direction/TcpThroughput.MeetsLimit/DutTransmits"),
            "Direction/TcpThroughput.MeetsLimit/DutTransmits");
  EXPECT_EQ(escape_dokuwiki("a | b"), "%%a | b%%");
  EXPECT_EQ(escape_dokuwiki("see //x// and 100%% sure"), "%%see //x// and 100% % sure%%");
  EXPECT_EQ(escape_dokuwiki("**bold**"), "%%**bold**%%");
}

TEST(Markup, NumbersGetPrecisionForTheirSize) {
  EXPECT_EQ(format_number(941.25), "941.2");
  EXPECT_EQ(format_number(12001.5), "12001.5");
  EXPECT_EQ(format_number(4.251), "4.25");
  EXPECT_EQ(format_number(0.17), "0.170");
  EXPECT_EQ(format_number(0.5, 941.3), "0.5");
  EXPECT_EQ(format_number(std::numeric_limits<double>::quiet_NaN()), "n/a");
}

TEST(Markup, DisplayWidthCountsCodePoints) {
  EXPECT_EQ(display_width("≥ 940"), 5U);
  EXPECT_EQ(display_width("µs"), 2U);
}

}  // namespace
}  // namespace hil::report
