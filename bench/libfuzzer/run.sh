#!/bin/sh
# libFuzzer and Pathwise side by side on the functions of targets.txt.
#
#   bench/libfuzzer/run.sh [SECS] [NAME...]
#
# SECS (argument, else $SECS, else 60) is both libFuzzer's -max_total_time
# and Pathwise's --timeout. Environment: PATHWISE (default
# target/release/pathwise, relative to the repository root), CLANG (default
# clang-16), WORK (default /tmp/libfuzzer-bench: per-function build and
# output directories). NAMEs restrict the run to those functions.
#
# Per function:
#  (a) builds fuzz_NAME.c with $CLANG -g -O1 -fsanitize=fuzzer,address and
#      runs it for SECS seconds on a fresh corpus; a crash is recorded with
#      the sanitizer's kind and the file:line of its top frame;
#  (b) replays the final corpus (and the crash input, if any) through the
#      same harness built plainly with gcc -O0 --coverage (cov_driver.c) and
#      counts the branches gcov saw taken at least once;
#  (c) runs `pathwise gen FILE --function NAME --timeout SECS`, builds the
#      test file with gcc -O0 --coverage, runs it and counts the same way;
#      Pathwise's error tests (kind:line) are listed.
# Branches are counted twice: over the function and the static helpers it
# calls ("fn", see targets.txt) and over the whole .c file ("file", gcov's
# "Taken at least once" for it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=$root/tests/c/corpus
case "${1:-}" in
    ''|*[!0-9]*) SECS=${SECS:-60} ;;
    *) SECS=$1; shift ;;
esac
PATHWISE=${PATHWISE:-target/release/pathwise}
case "$PATHWISE" in /*) ;; *) PATHWISE=$root/$PATHWISE ;; esac
CLANG=${CLANG:-clang-16}
WORK=${WORK:-/tmp/libfuzzer-bench}
mkdir -p "$WORK"
table=$WORK/table.txt
# ASan needs a symbolizer for file:line in its reports
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
    for s in llvm-symbolizer-16 /usr/lib/llvm-16/bin/llvm-symbolizer llvm-symbolizer; do
        if command -v "$s" >/dev/null 2>&1; then
            ASAN_SYMBOLIZER_PATH=$(command -v "$s"); export ASAN_SYMBOLIZER_PATH; break
        fi
    done
fi

fmt='%-22s | %4s %4s %4s | %4s %4s %4s | %6s %-13s | %-32s | %s\n'
{
echo "libFuzzer vs Pathwise, SECS=$SECS, pathwise=$PATHWISE, $(date -u +%Y-%m-%dT%H:%MZ)"
printf "$fmt" function "br" "pw" "lf" "brF" "pwF" "lfF" tests "pw run" "pathwise errors (kind:line)" "libfuzzer crash"
} | tee "$table"

sum_br=0; sum_pw=0; sum_lf=0; sum_brf=0; sum_pwf=0; sum_lff=0
grep -v '^#' "$here/targets.txt" >"$WORK/targets.list"
while read -r name file helpers <&3; do
    [ -n "$name" ] || continue
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    fns=$name
    [ "$helpers" = - ] || fns="$name,$helpers"
    w=$WORK/$name
    rm -rf "$w"
    mkdir -p "$w/corpus" "$w/artifacts" "$w/lf" "$w/pw"

    # (a) libFuzzer
    crash=no
    if $CLANG -g -O1 -fsanitize=fuzzer,address -I"$here" -I"$corpus" \
            "$here/fuzz_$name.c" -o "$w/fuzzer" >"$w/fuzzer-build.log" 2>&1; then
        (cd "$w" && timeout $((SECS + 60)) ./fuzzer -max_total_time="$SECS" -timeout=10 \
            -rss_limit_mb=2048 -artifact_prefix="$w/artifacts/" "$w/corpus" >"$w/fuzz.log" 2>&1)
        report=$(grep -m1 -E '^==[0-9]+==ERROR: |runtime error: |^==[0-9]+== ERROR: libFuzzer' "$w/fuzz.log")
        if [ -n "$report" ]; then
            kind=$(echo "$report" | sed -n 's/.*ERROR: AddressSanitizer: \([a-z-]*\).*/\1/p')
            [ -n "$kind" ] || kind=$(echo "$report" | sed -n 's/.*ERROR: libFuzzer: \([a-z-]*\).*/libFuzzer-\1/p')
            [ -n "$kind" ] || kind=$(echo "$report" | sed 's/^==[0-9]*==//' | cut -c1-40)
            access=$(grep -m1 -oE '^(READ|WRITE) of size [0-9]+' "$w/fuzz.log" | cut -d' ' -f1)
            at=$(grep -m1 -E '^ *#0 ' "$w/fuzz.log" | grep -oE '[^ /]+\.c:[0-9]+' | head -1)
            # an inlined frame may name its file without a line
            [ -n "$at" ] || at=$(grep -m1 -E '^ *#0 ' "$w/fuzz.log" | grep -oE '[^ /]+\.c$' | head -1)
            if [ -z "$at" ]; then   # unsymbolized: "(binary+0xOFFSET)"
                off=$(grep -m1 -E '^ *#0 ' "$w/fuzz.log" | sed -n 's/.*+\(0x[0-9a-f]*\)).*/\1/p')
                [ -n "$off" ] && at=$(addr2line -e "$w/fuzzer" "$off" 2>/dev/null | grep -oE '[^ /]+\.c:[0-9]+' | head -1)
            fi
            crash="yes: $kind${access:+ $access}${at:+ at $at}"
        fi
    else
        crash="fuzzer build failed"
    fi

    # (b) gcov of the fuzzer's corpus (and crash input)
    lf="-"; lff="-"; br="-"; brf="-"
    if gcc -O0 --coverage -I"$here" -I"$corpus" -c "$here/fuzz_$name.c" -o "$w/lf/harness.o" 2>"$w/lf/build.log" &&
       gcc -O0 -c "$here/cov_driver.c" -o "$w/lf/driver.o" 2>>"$w/lf/build.log" &&
       gcc --coverage "$w/lf/harness.o" "$w/lf/driver.o" -o "$w/lf/driver" 2>>"$w/lf/build.log"; then
        (cd "$w/lf" && timeout 300 ./driver "$w/corpus" >run.log 2>&1)
        for a in "$w"/artifacts/*; do
            [ -f "$a" ] && (cd "$w/lf" && timeout 60 ./driver "$a" >>run.log 2>&1)
        done
        (cd "$w/lf" && gcov -b -c -n harness.gcda >gcov.txt 2>&1
         gcov --json-format -b -t harness.gcda 2>/dev/null | python3 "$here/gcov_branches.py" "$file" "$fns" >branches.txt)
        read -r a1 a2 a3 a4 <"$w/lf/branches.txt" && { br=$a1; lf=$a2; brf=$a3; lff=$a4; }
    fi

    # (c) Pathwise
    pw="-"; pwf="-"; tests="-"; pwrun="-"
    timeout $((SECS + 60)) "$PATHWISE" gen "$corpus/$file" --function "$name" --timeout "$SECS" \
        --out "$w/pw" >"$w/pw/gen.log" 2>&1
    echo "rc=$?" >>"$w/pw/gen.log"
    tests=$(sed -n 's/^  tests: *\([0-9]*\).*/\1/p' "$w/pw/gen.log" | head -1)
    errs=$(sed -n 's/^    test [0-9]*: \([a-z-]*\) at [^ ]*:\([0-9]*\):[0-9]*:.*/\1:\2/p' "$w/pw/gen.log" | sort -u | tr '\n' ' ')
    if [ -f "$w/pw/${name}_tests.c" ]; then
        if (cd "$w/pw" && timeout 300 gcc -O0 --coverage -I. -I"$corpus" -c "${name}_tests.c" -o t.o >build.log 2>&1 &&
                gcc --coverage t.o -o t -lm >>build.log 2>&1); then
            (cd "$w/pw" && timeout 300 ./t >run.log 2>&1; echo "rc=$?" >>run.log)
            pwrun=$(grep -oE '^[0-9]+ passed, [0-9]+ failed' "$w/pw/run.log" | tail -1 | sed 's/ passed, /p\//; s/ failed/f/')
            [ -n "$pwrun" ] || pwrun="no result ($(tail -1 "$w/pw/run.log"))"
            grep -q 'not observed natively' "$w/pw/run.log" && pwrun="$pwrun+unobs"
            (cd "$w/pw" && gcov -b -c -n t.gcda >gcov.txt 2>&1
             gcov --json-format -b -t t.gcda 2>/dev/null | python3 "$here/gcov_branches.py" "$file" "$fns" >branches.txt)
            if read -r a1 a2 a3 a4 <"$w/pw/branches.txt"; then
                [ "$br" = - ] && br=$a1
                [ "$brf" = - ] && brf=$a3
                pw=$a2; pwf=$a4
            fi
        else
            pwrun="build failed/timeout"
        fi
        # the JSON suite can be very large; keep the C file and logs
        rm -f "$w/pw/${name}_tests.json" "$w/pw/t" "$w/pw/t.o"
    else
        pwrun="no tests file"
    fi
    rm -f "$w/fuzzer" "$w/lf/driver"

    printf "$fmt" "$name" "$br" "$pw" "$lf" "$brf" "$pwf" "$lff" "${tests:--}" "$pwrun" "${errs:--}" "$crash" | tee -a "$table"
    case "$br" in *[!0-9]*|'') ;; *) sum_br=$((sum_br + br)) ;; esac
    case "$pw" in *[!0-9]*|'') ;; *) sum_pw=$((sum_pw + pw)) ;; esac
    case "$lf" in *[!0-9]*|'') ;; *) sum_lf=$((sum_lf + lf)) ;; esac
    case "$brf" in *[!0-9]*|'') ;; *) sum_brf=$((sum_brf + brf)) ;; esac
    case "$pwf" in *[!0-9]*|'') ;; *) sum_pwf=$((sum_pwf + pwf)) ;; esac
    case "$lff" in *[!0-9]*|'') ;; *) sum_lff=$((sum_lff + lff)) ;; esac
done 3<"$WORK/targets.list"
printf "$fmt" SUM "$sum_br" "$sum_pw" "$sum_lf" "$sum_brf" "$sum_pwf" "$sum_lff" "" "" "" "" | tee -a "$table"
echo "br/pw/lf: branches of the function and its static helpers: total, taken by Pathwise's tests, taken by libFuzzer's corpus;" | tee -a "$table"
echo "brF/pwF/lfF: the same over the whole .c file (gcov's 'Taken at least once'). pw run: the Pathwise test file's own verdict." | tee -a "$table"
