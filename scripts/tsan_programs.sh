#!/usr/bin/env bash
# The programs of the tests labelled `tsan` in a configured build directory, one path a line;
# each is the ninja target of its file name. Usage: scripts/tsan_programs.sh BUILD_DIR
# Until a program is built, ctest cannot say it all: a QtTest program's test has its labels but
# no command, and a GoogleTest program's tests are not found yet (ctest lists <name>_NOT_BUILT,
# without labels). So the commands come from the CTestTestfile.cmake files, and a GoogleTest
# program's labels from the file gtest_discover_tests wrote for ctest to include.
set -euo pipefail
build_dir="$(cd "$1" && pwd)"

ctest --test-dir "$build_dir" --show-only=json-v1 -L tsan 2>/dev/null | python3 -c '
import json, pathlib, re, sys

labelled = {test["name"] for test in json.load(sys.stdin)["tests"]}
programs = set()
for testfile in pathlib.Path(sys.argv[1]).rglob("CTestTestfile.cmake"):
    text = testfile.read_text()
    # The program is the first word of the command that lies in the build directory: a wrapper
    # script from the source tree may run it.
    for name, command in re.findall(r"^add_test\(\[=\[(.*?)\]=\] (.*)\)$", text, re.M):
        if name in labelled:
            words = re.findall(r"\"([^\"]*)\"", command)
            programs.add(next(word for word in words if word.startswith(sys.argv[1] + "/")))
    for included in re.findall(r"^include\(\"(.*_include\.cmake)\"\)", text, re.M):
        discovery = pathlib.Path(included).read_text()
        properties = re.search(r"TEST_PROPERTIES \[==\[(.*?)\]==\]", discovery)
        if properties and re.search(r"(^|;)LABELS;(.*;)?tsan(;|$)", properties.group(1)):
            programs.add(re.search(r"TEST_EXECUTABLE \[==\[(.*?)\]==\]", discovery).group(1))
print(*sorted(programs), sep="\n")
' "$build_dir"
