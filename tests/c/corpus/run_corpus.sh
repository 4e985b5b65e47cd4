#!/bin/sh
# Runs Pathwise over every function of functions.txt and prints, per
# function: tests, stop reason, gen wall time, whether the test file builds
# with `cc -Wall -Wextra` (yes / warn / no) and what ./a.out prints,
# `pathwise replay`'s verdict, and the error tests (kind:line).
#
#   PATHWISE=/path/to/pathwise OUT=/tmp/corpus-out TIMEOUT=30 ./run_corpus.sh [NAME...]
#   REUSE=1 ./run_corpus.sh      re-tabulates the logs of an earlier run
#
# Each gen runs under `timeout 90`, each build, test run and replay under
# `timeout 300`.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
PATHWISE=${PATHWISE:-$root/target/release/pathwise}
OUT=${OUT:-/tmp/corpus-out}
TIMEOUT=${TIMEOUT:-30}
mkdir -p "$OUT"
printf '%-22s %6s %-9s %6s %-5s %-26s %-14s %s\n' function tests stop gen_s build run replay errors
grep -v '^#' "$here/functions.txt" | while read -r file fn; do
    [ -n "$fn" ] || continue
    if [ $# -gt 0 ]; then
        case " $* " in *" $fn "*) ;; *) continue ;; esac
    fi
    d=$OUT/$fn
    if [ -z "$REUSE" ]; then
        rm -rf "$d"; mkdir -p "$d"
        t0=$(date +%s.%N)
        timeout 90 "$PATHWISE" gen "$here/$file" --function "$fn" --timeout "$TIMEOUT" --out "$d" >"$d/gen.log" 2>&1
        echo "rc=$?" >"$d/gen.rc"
        t1=$(date +%s.%N)
        echo "$t0 $t1" | awk '{printf "%.1f\n", $2 - $1}' >"$d/gen.time"
        rm -f "$d/build.log" "$d/run.log" "$d/replay.log"
        if [ -f "$d/${fn}_tests.c" ]; then
            if (cd "$d" && timeout 300 cc -Wall -Wextra -I. -I"$here" "${fn}_tests.c" -lm -o a.out >build.log 2>&1); then
                (cd "$d" && timeout 300 ./a.out >run.log 2>&1; echo "rc=$?" >>run.log)
            else
                echo "build-failed rc=$?" >>"$d/build.log"
            fi
            timeout 300 "$PATHWISE" replay "$d" >"$d/replay.log" 2>&1
            echo "rc=$?" >>"$d/replay.log"
            rm -f "$d/a.out" "$d/pathwise_replay" "$d"/*.gcda "$d"/*.gcno
        fi
    fi
    tests=$(sed -n 's/^  tests: *\([0-9]*\).*/\1/p' "$d/gen.log" | head -1)
    stop=$(sed -n 's/^  stop: *\([a-z-]*\).*/\1/p' "$d/gen.log" | head -1)
    [ -n "$stop" ] || stop=$(cat "$d/gen.rc" 2>/dev/null)
    errs=$(sed -n 's/^    test [0-9]*: \([a-z-]*\) at [^ ]*:\([0-9]*\):[0-9]*:.*/\1:\2/p' "$d/gen.log" | sort -u | tr '\n' ' ')
    build=-; run=-; replay=-
    if [ -f "$d/build.log" ]; then
        if grep -q '^build-failed' "$d/build.log"; then build=no
        elif grep -q 'warning:' "$d/build.log"; then build=warn
        else build=yes; fi
    fi
    if [ -f "$d/run.log" ]; then
        run=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$d/run.log" | tail -1 | sed 's/ error(s) not observed natively/ err-unobserved/')
        [ -n "$run" ] || run="no count ($(tail -1 "$d/run.log"))"
    fi
    if [ -f "$d/replay.log" ]; then
        rrc=$(tail -1 "$d/replay.log")
        if grep -q '^coverage agrees' "$d/replay.log" && [ "$rrc" = rc=0 ]; then replay=agrees
        elif grep -q '^coverage' "$d/replay.log"; then replay="$(grep '^coverage' "$d/replay.log" | head -1 | cut -c1-30) $rrc"
        else replay="$rrc"; fi
    fi
    printf '%-22s %6s %-9s %6s %-5s %-26s %-14s %s\n' "$fn" "${tests:--}" "$stop" "$(cat "$d/gen.time" 2>/dev/null)" "$build" "$run" "$replay" "${errs:--}"
done
