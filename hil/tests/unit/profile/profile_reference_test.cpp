// Unit tests of the profile reference: docs/profile.md's key table is the one the key table makes,
// and the echo, the loader and the reference know the same keys (each key is declared once, in
// hil/profile/detail/profile_keys.cpp, and all three are made from it).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hil/profile/profile.hpp"
#include "hil/profile/reference.hpp"
#include "hil/tests/unit/profile/profile_test_support.hpp"

namespace hil::profile {
namespace {

class ProfileReference : public ProfileEnv {};

const std::filesystem::path docs_file = std::filesystem::path(HIL_SOURCE_DIR) / "docs/profile.md";

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  EXPECT_TRUE(in.is_open()) << "cannot read " << file;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The (table, key) pairs of an echo, in its order.
std::vector<std::pair<std::string, std::string>> echoed_keys(const std::string& echo_text) {
  std::vector<std::pair<std::string, std::string>> keys;
  std::istringstream lines(echo_text);
  std::string table;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with('[')) {
      table = line.substr(1, line.size() - 2);
    } else if (const auto equals = line.find(" = "); equals != std::string::npos) {
      keys.emplace_back(table, line.substr(0, equals));
    }
  }
  return keys;
}

// The reference's sections: each "### `[a]`, `[b]`" heading's tables, and the keys listed under it.
std::map<std::string, std::set<std::string>> reference_keys(const std::string& markdown) {
  std::map<std::string, std::set<std::string>> keys;
  std::vector<std::string> tables;
  std::istringstream lines(markdown);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("### ")) {
      tables.clear();
      for (std::size_t at = line.find("`["); at != std::string::npos; at = line.find("`[", at)) {
        const std::size_t end = line.find("]`", at);
        tables.push_back(line.substr(at + 2, end - at - 2));
        at = end;
      }
    } else if (line.starts_with("| `")) {
      const std::string key = line.substr(3, line.find('`', 3) - 3);
      for (const auto& table : tables) keys[table].insert(key);
    }
  }
  return keys;
}

// The first line where a and b differ, as "line N: <a's> / <b's>", or empty when they are equal.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream in_a(a);
  std::istringstream in_b(b);
  std::string line_a;
  std::string line_b;
  for (int n = 1;; ++n) {
    const bool more_a = static_cast<bool>(std::getline(in_a, line_a));
    const bool more_b = static_cast<bool>(std::getline(in_b, line_b));
    if (!more_a && !more_b) return {};
    if (!more_a || !more_b || line_a != line_b) {
      return "line " + std::to_string(n) + ":\n  docs/profile.md: " + (more_a ? line_a : "(end)") +
             "\n  key table:       " + (more_b ? line_b : "(end)");
    }
  }
}

TEST_F(ProfileReference, DocsTableMatchesTheKeyTable) {
  const std::string doc = read_file(docs_file);
  const std::string difference = first_difference(doc, with_reference(doc));
  EXPECT_TRUE(difference.empty())
      << "docs/profile.md's key table differs from the profile key table "
         "(hil/profile/detail/profile_keys.cpp), first at "
      << difference
      << "\nRegenerate it from the repository root:\n"
         "  build/ci/tools/hilperf-testbed/hilperf-testbed profile-keys --write docs/profile.md";
}

TEST_F(ProfileReference, MissingMarkersAreAnError) {
  EXPECT_THROW((void)with_reference("# a page without the markers\n"), std::runtime_error);
}

TEST_F(ProfileReference, TheEchoAndTheReferenceListTheSameKeys) {
  const auto echoed = echoed_keys(echo(parse_profile(minimal, "minimal.toml")));
  const auto documented = reference_keys(reference_markdown());
  std::map<std::string, std::set<std::string>> from_echo;
  for (const auto& [table, key] : echoed) {
    EXPECT_TRUE(from_echo[table].insert(key).second) << table << "." << key << " echoed twice";
  }
  EXPECT_EQ(from_echo, documented);
  EXPECT_GE(echoed.size(), 90U) << "every key of the profile";
}

// Each echoed key given a value no key accepts (a date) is refused as that key's wrong type, never
// as an unknown key: the loader reads every key the echo writes.
TEST_F(ProfileReference, TheLoaderReadsEveryEchoedKey) {
  const std::string text = echo(parse_profile(minimal, "minimal.toml"));
  std::istringstream lines(text);
  std::vector<std::string> all;
  for (std::string line; std::getline(lines, line);) all.push_back(line);
  std::string table;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].starts_with('[')) table = all[i].substr(1, all[i].size() - 2);
    const std::size_t equals = all[i].find(" = ");
    if (all[i].starts_with('#') || equals == std::string::npos) continue;
    const std::string key = table + "." + all[i].substr(0, equals);
    std::string changed;
    for (std::size_t j = 0; j < all.size(); ++j) {
      changed += (j == i ? all[i].substr(0, equals) + " = 1979-05-27" : all[j]) + "\n";
    }
    const std::vector<problem> problems = problems_of(changed);
    ASSERT_FALSE(problems.empty()) << key;
    EXPECT_EQ(problems.front().key, key);
    EXPECT_TRUE(contains(problems.front().message, "expected"))
        << key << ": " << problems.front().message;
  }
}

}  // namespace
}  // namespace hil::profile
