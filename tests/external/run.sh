#!/usr/bin/env bash
# Runs the external test programs (built by build.sh) with mpirun at several rank counts.
#
#   tests/external/run.sh [options] [NP ...]          (default NP: 2 4 8 16)
#
#   --preload LIB    LD_PRELOAD=LIB in every rank (passed as mpirun -x LD_PRELOAD=LIB; mpirun
#                    itself is not preloaded), e.g. --preload build/cpp/src/pmpi/liboptiq_pmpi.so
#   -x NAME=VALUE    one more environment variable for every rank (repeatable), e.g.
#                    -x OPTIQ_TOPOLOGY=torus:2x2x2 -x OPTIQ_PLANNER=heu2 -x OPTIQ_VERBOSE=1
#   --small          CI mode: shorter time limit per run (MPICH's programs take no size or
#                    iteration options; all of them together take about a minute)
#   --tests "A B"    only these programs (names from mpich_tests.txt)
#   --timeout SEC    time limit of one mpirun (default 120, 60 with --small)
#   --out DIR        logs and results.csv (default $OPTIQ_EXTERNAL_CACHE/results/mpich)
#   --mpirun-args S  more mpirun arguments, split on spaces
#
# A run passes when mpirun exits 0 and the program printed MPICH's success line " No Errors"
# (MTest_Finalize prints it on rank 0 when every rank found no error). Extra output, such as
# the interposer's OPTIQ_VERBOSE summary on stderr, is allowed; that summary (its first line
# starting "optiq:" that says "taken") is shown with the result and kept in results.csv.
# Exit status: 0 all passed, 1 some run failed (one line per failure at the end), 2 usage
# error or programs not built.
set -euo pipefail
. "$(dirname "$0")/common.sh"

usage() { awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit "${1:-0}"; }

preload="" small=0 only="" timeout_s="" out="" nps=() xenv=() extra_mpirun=()
while [ $# -gt 0 ]; do
    case "$1" in
        --preload) [ $# -ge 2 ] || die "--preload needs a library path"; preload=$2; shift 2 ;;
        -x) [ $# -ge 2 ] || die "-x needs NAME=VALUE"
            [[ "$2" =~ ^[A-Za-z_][A-Za-z0-9_]*(=.*)?$ ]] || die "-x '$2': expected NAME=VALUE"
            xenv+=("$2"); shift 2 ;;
        --small) small=1; shift ;;
        --tests) [ $# -ge 2 ] || die "--tests needs a list of names"; only=$2; shift 2 ;;
        --timeout) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "--timeout needs a number of seconds"
            timeout_s=$2; shift 2 ;;
        --out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift 2 ;;
        --mpirun-args) [ $# -ge 2 ] || die "--mpirun-args needs a string"
            read -r -a more <<<"$2"; extra_mpirun+=("${more[@]}"); shift 2 ;;
        -h|--help) usage 0 ;;
        [1-9]*) [[ "$1" =~ ^[1-9][0-9]*$ ]] || die "rank count '$1' is not a positive number"
            nps+=("$1"); shift ;;
        *) echo "run.sh: unknown argument '$1'" >&2; usage 2 ;;
    esac
done
[ ${#nps[@]} -gt 0 ] || nps=(2 4 8 16)
if [ -z "$timeout_s" ]; then
    if [ $small -eq 1 ]; then timeout_s=60; else timeout_s=120; fi
fi
out=${out:-$OPTIQ_EXTERNAL_CACHE/results/mpich}
command -v "$MPIRUN" >/dev/null 2>&1 || die "$MPIRUN not found"

if [ -n "$preload" ]; then
    [ -f "$preload" ] || die "--preload: no such file: $preload"
    preload=$(cd "$(dirname "$preload")" && pwd)/$(basename "$preload")
fi

# The programs to run, in the order of mpich_tests.txt.
tests=()
while read -r name _; do
    if [ -z "$only" ] || [[ " $only " == *" $name "* ]]; then tests+=("$name"); fi
done < <(mpich_test_entries)
for t in $only; do
    mpich_test_entries | awk -v t="$t" '$1 == t {f = 1} END {exit !f}' ||
        die "--tests: '$t' is not in mpich_tests.txt"
done
for t in "${tests[@]}"; do
    [ -x "$MPICH_BIN/$t" ] || die "$MPICH_BIN/$t is not built: run tests/external/build.sh first"
done

mpirun_args=(--oversubscribe --bind-to none)
[ "$(id -u)" -eq 0 ] && mpirun_args+=(--allow-run-as-root)
[ -n "$preload" ] && mpirun_args+=(-x "LD_PRELOAD=$preload")
for e in "${xenv[@]+"${xenv[@]}"}"; do mpirun_args+=(-x "$e"); done
mpirun_args+=("${extra_mpirun[@]+"${extra_mpirun[@]}"}")

rm -rf "$out/logs"
mkdir -p "$out/logs"
csv=$out/results.csv
echo "suite,test,np,result,seconds,reason,optiq_summary" >"$csv"

csv_field() { local s=${1//\"/\"\"}; printf '"%s"' "$s"; }

echo "mpich: ${#tests[@]} programs x ranks ${nps[*]}; mpirun ${mpirun_args[*]}; limit ${timeout_s}s per run"
echo "mpich: logs in $out/logs"
passed=0 failed=0 failures=() t_all=$(date +%s)
for np in "${nps[@]}"; do
    for t in "${tests[@]}"; do
        base=$out/logs/$t.np$np
        start=$(date +%s.%N)
        set +e
        timeout -k 10 "$timeout_s" "$MPIRUN" "${mpirun_args[@]}" -np "$np" "$MPICH_BIN/$t" \
            </dev/null >"$base.out" 2>"$base.err"
        status=$?
        set -e
        secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
        summary=$(grep -h -m 1 -o 'optiq:.*taken.*' "$base.err" "$base.out" 2>/dev/null | head -n 1 | cut -c1-160 || true)
        reason=""
        if [ $status -eq 124 ] || [ $status -eq 137 ]; then
            reason="timed out after ${timeout_s}s"
        elif found=$(grep -m 1 -E '^ Found [0-9]+ errors' "$base.out"); then
            reason="the test reported:${found} (exit status $status)"
        elif [ $status -ne 0 ]; then
            hint=$(grep -h -m 1 -i -E 'signal|segmentation|abort|error|killed' "$base.err" "$base.out" 2>/dev/null |
                   head -n 1 | cut -c1-140 || true)
            reason="exit status $status${hint:+: $hint}"
        elif ! grep -qx ' No Errors' "$base.out"; then
            last=$(grep -v '^[[:space:]]*$' "$base.out" | tail -n 1 | cut -c1-100 || true)
            reason="exit status 0 but no ' No Errors' line (last stdout line: '${last}')"
        fi
        if [ -z "$reason" ]; then
            result=PASS; passed=$((passed + 1))
            printf 'PASS %-14s np=%-3s %6ss%s\n' "$t" "$np" "$secs" "${summary:+  $summary}"
        else
            result=FAIL; failed=$((failed + 1))
            failures+=("FAIL $t np=$np: $reason (logs: $base.out, $base.err)")
            printf 'FAIL %-14s np=%-3s %6ss  %s\n' "$t" "$np" "$secs" "$reason"
        fi
        echo "mpich,$t,$np,$result,$secs,$(csv_field "$reason"),$(csv_field "$summary")" >>"$csv"
    done
done
echo "mpich: $(( $(date +%s) - t_all ))s in all; results in $csv"
for f in "${failures[@]+"${failures[@]}"}"; do echo "$f"; done
echo "mpich: $passed passed, $failed failed"
[ $failed -eq 0 ]
