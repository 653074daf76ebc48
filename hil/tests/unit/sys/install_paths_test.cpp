// The run-time lookup of hilperf's own programs and files: override, installed tree, build tree.
#include "hil/sys/install_paths.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

namespace fs = std::filesystem;
using hil::sys::resolve_install_path;

// A file system holding exactly the given files.
auto holding(std::set<fs::path> files) {
  return [files = std::move(files)](const fs::path& p) { return files.count(p) != 0; };
}

const fs::path kBuildPeer = "/src/build/ci/tools/hilperf-peer/hilperf-peer";

TEST(InstallPaths, InstalledTreeWinsOverTheBuildTree) {
  EXPECT_EQ(resolve_install_path(std::nullopt, "/usr/libexec/hilperf", "../../bin/hilperf-peer",
                                 kBuildPeer, holding({"/usr/bin/hilperf-peer", kBuildPeer})),
            fs::path("/usr/bin/hilperf-peer"));
}

TEST(InstallPaths, BuildTreeWhenNothingIsInstalledNextToTheExecutable) {
  EXPECT_EQ(resolve_install_path(std::nullopt, "/src/build/ci/cases", "../../bin/hilperf-peer",
                                 kBuildPeer, holding({kBuildPeer})),
            kBuildPeer);
}

TEST(InstallPaths, EnvironmentOverridesBoth) {
  EXPECT_EQ(resolve_install_path(std::string("/opt/peer"), "/usr/libexec/hilperf",
                                 "../../bin/hilperf-peer", kBuildPeer,
                                 holding({"/usr/bin/hilperf-peer", kBuildPeer})),
            fs::path("/opt/peer"));
}

TEST(InstallPaths, EmptyEnvironmentIsNoOverride) {
  EXPECT_EQ(resolve_install_path(std::string(), "/usr/bin", "hilperf-peer", kBuildPeer,
                                 holding({"/usr/bin/hilperf-peer"})),
            fs::path("/usr/bin/hilperf-peer"));
}

TEST(InstallPaths, NoRelativePathOrUnknownSelfMeansTheBuildTree) {
  const auto all = [](const fs::path&) { return true; };
  EXPECT_EQ(resolve_install_path(std::nullopt, "/usr/bin", "", kBuildPeer, all), kBuildPeer);
  EXPECT_EQ(resolve_install_path(std::nullopt, "", "hilperf-peer", kBuildPeer, all), kBuildPeer);
}

TEST(InstallPaths, SelfDirectoryIsAnAbsoluteDirectory) {
  const auto dir = hil::sys::self_directory();
  EXPECT_TRUE(dir.is_absolute()) << dir;
  EXPECT_TRUE(fs::is_directory(dir)) << dir;
}

}  // namespace
