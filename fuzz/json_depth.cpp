// fuzz_json_depth: the nesting count every JSON decoder of outside input runs first
// (hil/sys/json_depth.hpp json_nesting_depth, json_string_scan), against nlohmann's parser: for
// text that nlohmann reads as a JSON value, the count must be at least the value's real depth, or
// a document deeper than the limit would slip through to code that recurses once per level.
//
// Expected outcome: a count, for any text; nothing throws (noexcept). Findings: a crash, a count
// above limit + 1, a count that changes with the limit below it, and a JSON value deeper than the
// count.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"
#include "hil/sys/json_depth.hpp"

namespace {

using hil::fuzz::finding;
using nlohmann::json;

// The depth of a parsed value, arrays and objects counting one level each, without recursion.
std::size_t depth_of(const json& root) {
  std::size_t deepest = 0;
  std::vector<std::pair<const json*, std::size_t>> todo{{&root, 0}};
  while (!todo.empty()) {
    const auto [v, above] = todo.back();
    todo.pop_back();
    if (!v->is_structured()) continue;
    deepest = std::max(deepest, above + 1);
    for (const auto& child : *v) todo.emplace_back(&child, above + 1);
  }
  return deepest;
}

}  // namespace

// One input: any text.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = hil::fuzz::as_text(data, size);
  constexpr std::size_t unbounded = SIZE_MAX - 1;
  const std::size_t depth = hil::sys::json_nesting_depth(text, unbounded);
  for (const std::size_t limit :
       {std::size_t{0}, std::size_t{1}, std::size_t{7}, hil::sys::json_depth_limit}) {
    const std::size_t bounded = hil::sys::json_nesting_depth(text, limit);
    if (bounded > limit + 1) finding("a count above limit + 1");
    if ((depth > limit) != (bounded == limit + 1) || (depth <= limit && bounded != depth)) {
      finding("a count that depends on a limit it stays below");
    }
    if (hil::sys::json_too_deep(text, limit) != (depth > limit)) finding("json_too_deep disagrees");
  }
  // Only text nlohmann reads whole as one value; its own parser has no depth limit of its own,
  // so keep the document shallow enough for the comparison's containers.
  if (depth > 4 * hil::sys::json_depth_limit) return 0;
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return 0;
  // The count may be higher than the value's depth, never lower: nlohmann keeps one of duplicate
  // keys ({"c":[],"c":""} is one level deep) and, as iperf3's cJSON does, takes a NUL byte for the
  // end of the input, so brackets after it are counted but never parsed.
  if (depth_of(j) > depth) finding("a JSON value deeper than json_nesting_depth counted");
  return 0;
}
