#!/usr/bin/env python3
"""Check the facts stated in the header of each corpus program.

For every PROGRAM.c of tests/testcomp (or those named on the command line),
the hand-written suite handwritten/PROGRAM.txt (one test per line, its values
separated by white space, `#` starts a comment) is zipped in the Test-Comp
format and run with TestCov (`.ci/testcov-setup.sh` installs it) under both
data models (-32 and -64):

- with coverage-branches.prp: TestCov's number of goals and the goals the
  suite covers must equal the header's `testcov-goals: N, coverable: M`;
- with coverage-error-call.prp (programs that define reach_error): the
  verdict must be TRUE if the header says `reach_error: reachable`, UNKNOWN
  otherwise;
- gcc's own branch count: the program is built with `gcc --coverage` and
  TestCov's input harness, every test is run, and `gcov -b` must report the
  header's `gcov-branches: N, coverable: M` (N branches, M taken at least
  once).

Exit status 1 if any fact disagrees. Everything runs in a temporary
directory (TestCov writes files into its working directory and next to the
program).
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPECS = {
    "coverage-branches.prp": "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )",
    "coverage-error-call.prp": "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )",
}
MODELS = {"-32": "32bit", "-64": "64bit"}
TESTCASE_HEAD = (
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
    '<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN"'
    ' "https://sosy-lab.org/test-format/testcase-1.1.dtd">\n'
)
METADATA_HEAD = (
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
    '<!DOCTYPE test-metadata PUBLIC "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN"'
    ' "https://sosy-lab.org/test-format/test-metadata-1.1.dtd">\n'
)
# Flush gcov's counters before the program aborts (an assumption that fails,
# __assert_fail in reach_error), as TestCov's own instrumentation does.
WRAP_C = """
extern void __gcov_dump(void);
extern void __real_abort(void) __attribute__((__noreturn__));
extern void __real___assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void __wrap_abort(void) { __gcov_dump(); __real_abort(); }
void __wrap___assert_fail(const char *a, const char *f, unsigned int l, const char *fn) {
  __gcov_dump(); __real___assert_fail(a, f, l, fn);
}
"""


def header_facts(text):
    facts = {}
    for key in ("property", "reach_error", "testcov-goals", "gcov-branches"):
        m = re.search(r"^// " + key + r": (.*)$", text, re.M)
        if not m:
            raise SystemExit(f"header lacks '// {key}:'")
        facts[key] = m.group(1).strip()
    for key in ("testcov-goals", "gcov-branches"):
        m = re.match(r"(\d+), coverable: (\d+)", facts[key])
        facts[key] = (int(m.group(1)), int(m.group(2)))
    return facts


def read_tests(path):
    tests = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            tests.append(line.split())
    return tests


def write_zip(program, tests, spec, arch, out):
    digest = hashlib.sha256(program.read_bytes()).hexdigest()
    meta = METADATA_HEAD + "<test-metadata>\n" + "".join(
        f"  <{tag}>{value}</{tag}>\n"
        for tag, value in [
            ("sourcecodelang", "C"),
            ("producer", "hand-written"),
            ("specification", spec),
            ("programfile", program.name),
            ("programhash", digest),
            ("entryfunction", "main"),
            ("architecture", arch),
            ("creationtime", "2024-01-01T00:00:00Z"),
        ]
    ) + "</test-metadata>\n"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("test-suite/metadata.xml", meta)
        for i, test in enumerate(tests, 1):
            body = "".join(f"  <input>{v}</input>\n" for v in test)
            z.writestr(f"test-suite/testcase-{i}.xml", TESTCASE_HEAD + "<testcase>\n" + body + "</testcase>\n")


def run_testcov(work, program, tests, prp, model):
    """TestCov's summary lines as a dict, plus the output directory."""
    suite = work / f"suite{model}-{prp}.zip"
    write_zip(program, tests, SPECS[prp], MODELS[model], suite)
    out = work / f"out{model}-{prp}"
    cmd = ["testcov", "--no-isolation", "--no-plots", "--no-stop-on-success", model,
           "--goal", str(HERE / prp), "--test-suite", str(suite), "--output", str(out), str(program)]
    res = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
    summary = dict(re.findall(r"^(Tests run|Tests in suite|Coverage|Number of goals|Result): (.*)$", res.stdout, re.M))
    if res.returncode != 0 or "Result" not in summary:
        raise RuntimeError(f"testcov failed ({res.returncode}):\n{res.stdout}\n{res.stderr}")
    return summary, out


def gcov_branches(work, program, tests, model, harness):
    """(branches, taken at least once) of `program` as gcc --coverage sees it."""
    build = work / f"gcov{model}"
    build.mkdir()
    shutil.copy(harness, build / "harness.c")
    (build / "wrap.c").write_text(WRAP_C)
    flags = ["-std=gnu11", "-m32" if model == "-32" else "-m64", "-Wno-attributes", "-D__alias__(x)="]
    subprocess.run(["gcc", *flags, "--coverage", "-include", str(program), "-c", "harness.c"], cwd=build, check=True)
    subprocess.run(["gcc", *flags, "-c", "wrap.c"], cwd=build, check=True)
    subprocess.run(["gcc", *flags, "--coverage", "harness.o", "wrap.o", "-o", "a.out", "-lm",
                    "-Wl,--wrap=abort", "-Wl,--wrap=__assert_fail"], cwd=build, check=True)
    for test in tests:
        try:
            subprocess.run(["./a.out"], cwd=build, input="\n".join(test) + "\n", capture_output=True, text=True, timeout=3)
        except subprocess.TimeoutExpired:
            pass  # killed: its counters are lost, as under TestCov
    if not (build / "harness.gcda").exists():
        return 0, 0
    res = subprocess.run(["gcov", "-b", "-c", "harness.gcda"], cwd=build, capture_output=True, text=True, check=True)
    section = res.stdout.split(f"File '{program}'", 1)[1].split("File '", 1)[0]
    m = re.search(r"Taken at least once:([\d.]+)% of (\d+)", section)
    if not m:
        return 0, 0
    total = int(m.group(2))
    return total, round(float(m.group(1)) * total / 100)


def check(path):
    facts = header_facts(path.read_text())
    tests = read_tests(HERE / "handwritten" / (path.stem + ".txt"))
    problems = []
    with tempfile.TemporaryDirectory(prefix="tc-check-") as tmp:
        work = Path(tmp)
        program = work / path.name
        shutil.copy(path, program)
        for model in MODELS:
            summary, out = run_testcov(work, program, tests, "coverage-branches.prp", model)
            goals = int(summary.get("Number of goals", "0"))
            pct = float(summary.get("Coverage", "0%").rstrip("%"))
            covered = round(pct * goals / 100)
            if summary["Tests in suite"] != str(len(tests)):
                problems.append(f"{model}: TestCov read {summary['Tests in suite']} of {len(tests)} tests")
            if (goals, covered) != facts["testcov-goals"]:
                problems.append(f"{model}: testcov-goals: {goals}, coverable: {covered} (header: {facts['testcov-goals']})")
            branches = gcov_branches(work, program, tests, model, out / "harness.c")
            if branches != facts["gcov-branches"]:
                problems.append(f"{model}: gcov-branches: {branches[0]}, coverable: {branches[1]} (header: {facts['gcov-branches']})")
            if facts["reach_error"] != "absent":
                summary, _ = run_testcov(work, program, tests, "coverage-error-call.prp", model)
                expected = "TRUE" if facts["reach_error"] == "reachable" else "UNKNOWN"
                if summary["Result"] != expected:
                    problems.append(f"{model}: error-call verdict {summary['Result']}, expected {expected}")
    return facts, problems


def main(argv):
    if shutil.which("testcov") is None:
        raise SystemExit("testcov not found: run .ci/testcov-setup.sh")
    paths = [Path(p).resolve() for p in argv] or sorted(HERE.glob("*.c"))
    failed = False
    for path in paths:
        facts, problems = check(path)
        status = "ok" if not problems else "MISMATCH"
        goals, gcov = facts["testcov-goals"], facts["gcov-branches"]
        print(f"{status:8} {path.name:28} testcov {goals[1]}/{goals[0]}  gcov {gcov[1]}/{gcov[0]}  reach_error {facts['reach_error']}")
        for p in problems:
            print("         " + p)
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
