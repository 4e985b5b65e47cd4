#!/usr/bin/env python3
"""Branch coverage of one source file from gcov's JSON output on stdin
(gcov --json-format -b -t X.gcda): prints
    FN_TOTAL FN_TAKEN FILE_TOTAL FILE_TAKEN
where FN_* count the branches (arcs) on the lines of the listed functions
and FILE_* those of the whole file, "taken" meaning executed at least once
(gcov's "Taken at least once")."""
import json
import os
import sys

source = os.path.basename(sys.argv[1])
functions = set(f for f in sys.argv[2].split(",") if f and f != "-")
data = json.load(sys.stdin)
fn_total = fn_taken = file_total = file_taken = 0
for f in data.get("files", []):
    if os.path.basename(f["file"]) != source:
        continue
    for line in f["lines"]:
        branches = line.get("branches", [])
        taken = sum(1 for b in branches if b["count"] > 0)
        file_total += len(branches)
        file_taken += taken
        if line.get("function_name") in functions:
            fn_total += len(branches)
            fn_taken += taken
print(fn_total, fn_taken, file_total, file_taken)
