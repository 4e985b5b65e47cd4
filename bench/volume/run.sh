#!/bin/sh
# Suite volume on 40 sequential ifs (issue 23's acceptance):
#   bench/volume/run.sh [SECS]
# ifs_errors.c: each if divides, so most paths end in one of a few errors
# (one error test per kind and location is kept); ifs_paths.c: 2^40 paths
# that all return (the run stops at --max-tests, 10,000 by default).
# Prints tests, the stop line, JSON size and the pathwise process's peak
# RSS and wall time (GNU time). PATHWISE defaults to target/release/pathwise.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SECS=${1:-30}
PATHWISE=${PATHWISE:-$root/target/release/pathwise}
out=${WORK:-/tmp/pathwise-volume}
for f in ifs_errors:f ifs_paths:g; do
    file=${f%%:*}; fn=${f##*:}
    rm -rf "$out/$file"
    /usr/bin/time -f "  peak RSS %M KB, wall %e s" \
        "$PATHWISE" gen "$here/$file.c" --function "$fn" --timeout "$SECS" -o "$out/$file" 2>&1 |
        grep -E "^pathwise:|tests:|error tests:|stop:|peak RSS"
    echo "  JSON $(wc -c < "$out/$file/${fn}_tests.json") bytes"
done
