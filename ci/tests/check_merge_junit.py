#!/usr/bin/env python3
"""Runs ci/merge-junit on a recorded HIL run and reads the result with junitparser, a real consumer.

Usage: check_merge_junit.py <ci/merge-junit> <data dir>   (data dir: ci/tests/data/junit)
Exit 0 when the merged report shows what CI servers need; 1 with one line per problem
("check_merge_junit: <problem>"); 2 on a usage error.

The data (its README says how it was recorded) is one real ctest run of hilperf's case binaries
with CTest 3.25 and GoogleTest 1.12 on a scratch simulated bench: Link.LinkState passes,
Link.LinkSpeed fails its verdict, the mtu9000 tier skips (jumbo off), IcmpLatency times out,
hil.peer.up fails so two traffic cases are not run, hil.history.regression exits 77 (no history).
The same checks run on CTest's own JUnit file must find problems: a checker that accepts
everything cannot pass.
"""

import os
import shutil
import subprocess
import sys
import tempfile

try:
    from junitparser import Failure, JUnitXml, Properties, Property, Skipped, TestSuite
    from junitparser.junitparser import SystemOut  # not re-exported by 2.8
except ImportError as error:
    print(f"check_merge_junit: {error}: python3-junitparser (ci/install-deps installs it) is for "
          f"Debian's /usr/bin/python3, this is {sys.executable}", file=sys.stderr)
    sys.exit(1)

SUITE = "sim"
PROFILE = "/tmp/mj/sim.toml"  # the scratch profile the data was recorded with
PEER_CAUSE = "did not answer on 198.18.0.195:5201 within 10 s"


def suite_of(path):
    report = JUnitXml.fromfile(path)
    suites = [report] if isinstance(report, TestSuite) else list(report)
    if len(suites) != 1:
        raise ValueError(f"{len(suites)} testsuites, expected one")
    return suites[0]


def properties(element):
    """{name: value} of an element's own <properties>."""
    props = element.child(Properties)
    return {p.name: p.value for p in props.iterchildren(Property)} if props is not None else {}


def results(case, kind):
    return [r for r in case.result if isinstance(r, kind)]


class Checker:
    """Collects problems with one report; each check names the case and what it lacks."""

    def __init__(self, path):
        self.path = path
        self.problems = []
        self.suite = suite_of(path)
        self.cases = list(self.suite)
        with open(path, encoding="utf-8") as stream:
            self.text = stream.read()

    def problem(self, text):
        self.problems.append(text)

    def case(self, ctest_name, classname, name):
        """The case for a CTest name, in the merged form (classname, name) or CTest's own."""
        for case in self.cases:
            if (case.classname, case.name) == (classname, name):
                return case
        for case in self.cases:
            if case.name == ctest_name:
                self.problem(f"{ctest_name}: classname {case.classname!r}, expected {classname!r} "
                             f"and name {name!r}")
                return case
        self.problem(f"{ctest_name}: no testcase")
        return None

    def failure(self, case, label, *parts):
        """The case's one <failure>, whose message holds every part."""
        found = results(case, Failure)
        if len(found) != 1 or results(case, Skipped):
            self.problem(f"{label}: {len(found)} <failure> and {len(results(case, Skipped))} "
                         "<skipped>, expected one failure and no skip")
            return None
        message = found[0].message or ""
        for part in parts:
            if part not in message:
                self.problem(f"{label}: failure message {message!r} lacks {part!r}")
        return found[0]

    def skipped(self, case, label, part):
        found = results(case, Skipped)
        if len(found) != 1 or results(case, Failure):
            self.problem(f"{label}: not one <skipped> without a failure")
            return
        message = found[0].message or ""
        if part not in message or message.startswith("/"):
            self.problem(f"{label}: skip message {message!r} lacks {part!r} (or keeps file:line)")

    def check_cases(self):
        passed = self.case("hil.Link.LinkState", "hil.Link", "LinkState")
        if passed is not None and (passed.result or "observed" not in properties(passed)):
            self.problem("hil.Link.LinkState: not a pass with its observed property")

        failing = self.case("hil.Link.LinkSpeed", "hil.Link", "LinkSpeed")
        if failing is not None:
            f = self.failure(failing, "hil.Link.LinkSpeed",
                             "LinkSpeed FAILED: measured 10000 Mb/s, limit == 1000 Mb/s")
            if f is not None and not (f.message or "").startswith("LinkSpeed FAILED"):
                self.problem(f"hil.Link.LinkSpeed: message {f.message!r} does not start with the "
                             "verdict line")
            if f is not None and "link_fixture.cpp:18" not in (f.text or ""):
                self.problem("hil.Link.LinkSpeed: the failure body lacks gtest's full text")
            props = properties(failing)
            expected = {"observed": "10000 Mb/s", "limit": "== 1000 Mb/s (link.speed_mbps)"}
            for key, value in expected.items():
                if props.get(key) != value:
                    self.problem(f"hil.Link.LinkSpeed: property {key} is {props.get(key)!r}, "
                                 f"expected {value!r}")

        jumbo = self.case("hil.MtuTier/MtuReadBack.SetAndReadBack/mtu9000",
                          "hil.MtuTier/MtuReadBack", "SetAndReadBack/mtu9000")
        if jumbo is not None:
            self.skipped(jumbo, "mtu9000", "jumbo tier 9000 is off")
        history = self.case("hil.history.regression", "hil.fixtures", "hil.history.regression")
        if history is not None:
            self.skipped(history, "hil.history.regression", "no history configured")

        timeout = self.case("hil.IcmpLatency.NoLossAndPercentiles", "hil.IcmpLatency",
                            "NoLossAndPercentiles")
        if timeout is not None:
            self.failure(timeout, "hil.IcmpLatency.NoLossAndPercentiles (timed out)", "Timeout")

        for ctest_name, classname, name in [
                ("hil.MtuTier/UdpZeroLoss.NoDatagramLost/mtu1500", "hil.MtuTier/UdpZeroLoss",
                 "NoDatagramLost/mtu1500"),
                ("hil.Direction/TcpThroughput.MeetsLimit/DutTransmits",
                 "hil.Direction/TcpThroughput", "MeetsLimit/DutTransmits")]:
            blocked = self.case(ctest_name, classname, name)
            if blocked is not None:
                self.failure(blocked, f"{ctest_name} (fixture failed)", "hil.peer.up", PEER_CAUSE)
        peer = self.case("hil.peer.up", "hil.fixtures", "hil.peer.up")
        if peer is not None:
            self.failure(peer, "hil.peer.up", PEER_CAUSE)
        if any(c.name.endswith("Duplex") for c in self.cases):
            self.problem("a stale gtest XML (Link.Duplex, not in CTest's file) became a testcase")

    def check_suite(self):
        if self.suite.name != SUITE:
            self.problem(f"testsuite name {self.suite.name!r}, expected {SUITE!r}")
        counts = {"tests": len(self.cases),
                  "failures": sum(bool(results(c, Failure)) for c in self.cases),
                  "skipped": sum(bool(results(c, Skipped)) for c in self.cases), "errors": 0}
        expected = {"tests": 11, "failures": 5, "skipped": 2, "errors": 0}
        for key, value in expected.items():
            if counts[key] != value or getattr(self.suite, key) != value:
                self.problem(f"{key}: {counts[key]} testcases, attribute {getattr(self.suite, key)}"
                             f", expected {value}")
        profile = properties(self.suite).get("profile")
        if profile != PROFILE:
            self.problem(f"testsuite property profile is {profile!r}, expected {PROFILE!r}")
        echoes = self.text.count("# effective profile from ")
        if echoes != 1 or self.text.count("[thresholds]") != 1:
            self.problem(f"the profile echo appears {echoes} times, expected once")
        out = self.suite.child(SystemOut)
        if out is None or "# effective profile from " not in (out.text or ""):
            self.problem("the testsuite's <system-out> lacks the profile echo")


def check(path):
    try:
        checker = Checker(path)
    except Exception as error:  # junitparser's and the XML parser's errors alike
        return [f"{path}: junitparser cannot read it: {error}"]
    checker.check_cases()
    checker.check_suite()
    return checker.problems


def main(argv):
    if len(argv) != 3:
        print("usage: check_merge_junit.py <ci/merge-junit> <data dir>", file=sys.stderr)
        return 2
    merge, data = argv[1], argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        gtest = os.path.join(tmp, "gtest-xml")
        shutil.copytree(os.path.join(data, "gtest-xml"), gtest)
        # A file a previous run left: its test is not in CTest's file, so it must not show.
        shutil.copy(os.path.join(gtest, "hil.Link.LinkSpeed.xml"),
                    os.path.join(gtest, "hil.Link.Duplex.xml"))
        merged = os.path.join(tmp, "hil-junit.xml")
        run = subprocess.run(
            [sys.executable, merge, os.path.join(data, "ctest-junit.xml"), gtest,
             "--suite-name", SUITE, "--ctest-log", os.path.join(data, "ctest.log"),
             "--output", merged], capture_output=True, text=True, check=False)
        print(run.stdout + run.stderr, end="")
        if run.returncode != 0:
            print(f"check_merge_junit: ci/merge-junit exited {run.returncode}", file=sys.stderr)
            return 1
        problems = check(merged)
    for problem in problems:
        print(f"check_merge_junit: {problem}", file=sys.stderr)
    raw = check(os.path.join(data, "ctest-junit.xml"))
    if not raw:
        print("check_merge_junit: the checks accept CTest's own JUnit file as well; they check "
              "nothing", file=sys.stderr)
        return 1
    if problems:
        return 1
    print(f"check_merge_junit: the merged report passes every check ({len(raw)} problems found in "
          "CTest's own file, e.g. " + raw[0] + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
