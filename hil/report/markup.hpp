// Text that goes into a markup language: escaping for HTML/SVG, Markdown and DokuWiki, and the one
// number format all reports share. Every string taken from a results file passes through here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hil::report {

// text with & < > " ' replaced by entities: safe as HTML/SVG element text and attribute value.
[[nodiscard]] std::string escape_html(std::string_view text);

// text safe in a Markdown table cell: | and \ and the inline markup characters backslash-escaped,
// < > & as entities (GitHub renders inline HTML), line breaks as spaces.
[[nodiscard]] std::string escape_markdown(std::string_view text);

// text safe in a DokuWiki table cell: wrapped in %%…%% (nowiki) when it holds anything DokuWiki
// would read as markup, line breaks as spaces.
[[nodiscard]] std::string escape_dokuwiki(std::string_view text);

// A measured value with precision for its size: 941.2, 12001.5, 4.25, 0.170. NaN and infinities
// read "n/a".
[[nodiscard]] std::string format_number(double value);

// value with the precision format_number gives magnitude: a ±CI of 0.5 beside an average of 941.3
// reads "0.5", not "0.500".
[[nodiscard]] std::string format_number(double value, double magnitude);

// Number of characters (UTF-8 code points) in text, for fixed-width columns.
[[nodiscard]] std::size_t display_width(std::string_view text);

}  // namespace hil::report
