#!/usr/bin/env bash
# Runs an MPI program under liboptiq_pmpi.so and checks optiq's summary (OPTIQ_VERBOSE=1).
#
#   run_under_preload.sh --lib liboptiq_pmpi.so --np 8 [--planner mcf] [--transport p2p]
#                        [--topology SPEC] [--expect "alltoallv=8 passed=4 ..."] [--expect-line REGEX]
#                        [--env NAME=VALUE ...]
#                        -- PROGRAM ARGS...
#
# The topology defaults to a 2-ary torus with one node per rank (torus:2x2x2 for 8 ranks).
# --expect names counters of the summary line ("optiq: summary taken=... passed=...") that must
# have exactly these values; without it, at least one call must have been taken. --expect-line:
# some line optiq writes (grep -E) must match, e.g. the reason calls were passed. The program's
# own exit status must be 0. --env (repeatable) sets one more variable for every rank, e.g.
# OPTIQ_AGGREGATE_NODE=1. Exit status 1 with one line on failure.
set -euo pipefail
lib= np= planner=mcf transport=p2p topology= expect= expect_line=
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --lib) lib=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --planner) planner=$2; shift 2 ;;
    --transport) transport=$2; shift 2 ;;
    --topology) topology=$2; shift 2 ;;
    --expect) expect=$2; shift 2 ;;
    --expect-line) expect_line=$2; shift 2 ;;
    --env) extra+=(-x "$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "run_under_preload.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$lib" ] && [ -n "$np" ] && [ $# -gt 0 ] || { echo "run_under_preload.sh: --lib, --np and a program are required" >&2; exit 2; }
. "$(dirname "$0")/topology_for.sh"
[ -n "$topology" ] || topology=$(topology_for "$np")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
err=$(mktemp)
trap 'rm -f "$err"' EXIT
status=0
mpirun -np "$np" -x LD_PRELOAD="$lib" -x OPTIQ_TOPOLOGY="$topology" -x OPTIQ_PLANNER="$planner" \
  -x OPTIQ_TRANSPORT="$transport" -x OPTIQ_VERBOSE=1 ${extra[@]+"${extra[@]}"} "$@" 2>"$err" || status=$?
grep '^optiq:' "$err" >&2 || true
where="$np ranks, $planner, $transport"
if [ "$status" -ne 0 ]; then
  grep -v '^optiq:' "$err" | tail -5 >&2
  echo "FAILED ($where): the program exited with status $status"; exit 1
fi
summary=$(grep '^optiq: summary ' "$err" | tail -1)
[ -n "$summary" ] || { echo "FAILED ($where): no optiq summary (was the library preloaded?)"; exit 1; }
if [ -z "$expect" ]; then
  taken=$(sed -n 's/.* taken=\([0-9]*\).*/\1/p' <<<"$summary")
  [ "${taken:-0}" -gt 0 ] || { echo "FAILED ($where): optiq took no call"; exit 1; }
fi
for pair in $expect; do
  key=${pair%%=*} want=${pair#*=}
  got=$(sed -n "s/.* $key=\([0-9]*\).*/\1/p" <<<"$summary")
  [ "$got" = "$want" ] || { echo "FAILED ($where): $key=$got, expected $want"; exit 1; }
done
if [ -n "$expect_line" ] && ! grep '^optiq:' "$err" | grep -Eq -- "$expect_line"; then
  echo "FAILED ($where): no line of optiq's matches '$expect_line'"; exit 1
fi
echo "passed ($where): $summary"
