#!/usr/bin/env python3
"""Every discovered test's properties are well formed (docs/ctest-gtest-traps.md §3).

A list value in gtest_discover_tests(... PROPERTIES ...) is written out flat on CMake 3.25, so its
second element becomes a property name and every later pair shifts: RUN_SERIAL or TIMEOUT are
lost without a word, and CTest's own listing does not show it (it drops the unknown names). This
reads what discovery wrote, the set_tests_properties lines of every *_tests.cmake under the build
directory (after `ctest -N` has made them), and checks that each name is a CMake property name.
"""
import pathlib
import re
import subprocess
import sys

NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
TOKEN = re.compile(r"\[(=*)\[(.*?)\]\1\]|(\S+)")


def arguments(text):
    return [m.group(2) if m.group(2) is not None else m.group(3) for m in TOKEN.finditer(text)]


def problems(path):
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("set_tests_properties("):
            continue
        args = arguments(line[len("set_tests_properties("):].rstrip(")"))
        test, pairs = args[0], args[args.index("PROPERTIES") + 1:]
        if len(pairs) % 2 != 0:
            yield f"{path.name}: {test}: an odd number of property arguments"
        for name in pairs[0::2]:
            if not NAME.match(name):
                yield f"{path.name}: {test}: not a property name: {name} (a list value split the pairs)"


def main():
    root = pathlib.Path(sys.argv[1])
    if (root / "CTestTestfile.cmake").exists():
        subprocess.run(["ctest", "--test-dir", str(root), "-N"], check=True, capture_output=True)
    files = sorted(root.rglob("*_tests.cmake"))
    if not files:
        print(f"no discovered tests under {root}")
        return 1
    found = [p for f in files for p in problems(f)]
    for p in found:
        print(p)
    if found:
        return 1
    print(f"the properties of the tests in {len(files)} files are well formed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
