#!/usr/bin/env bash
# The external MPI tests under the optiq PMPI interposer, for every planner of the core and
# both transports, each run byte-checked by the test itself (" No Errors"), and optiq's summary
# checked: a program that makes intracommunicator all-to-alls optiq can serve must show calls
# taken by optiq, not only calls passed to MPI.
#
#   tests/external/matrix.sh --lib LIB [--small | --full] [--out DIR]
#
#   --small  CI: every planner and transport at 4 ranks, mcf/p2p at 2, 8 and 16 (default)
#   --full   every planner x transport x 2, 4, 8, 16 ranks
#   --out    where each configuration's results.csv and logs go (default: the cache)
# Prints one line per configuration, then "external: N passed, M failed"; exit 1 on a failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/../pmpi/topology_for.sh"

lib="" mode=small out="$OPTIQ_EXTERNAL_CACHE/results/matrix"
while [ $# -gt 0 ]; do
  case "$1" in
    --lib) [ $# -ge 2 ] || die "--lib needs a path"; lib=$2; shift 2 ;;
    --small) mode=small; shift ;;
    --full) mode=full; shift ;;
    --out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -f "$lib" ] || die "--lib: no such file: '$lib'"

# Programs whose intracommunicator calls optiq serves (the others use intercommunicators,
# messages below the direct threshold, or MPI_Ialltoall, which the interposer leaves to MPI).
expect_taken="alltoallv alltoallv0 alltoall1 nonblocking"

configs=()
for planner in default heu1 heu2 mcf; do
  for transport in p2p rma; do
    if [ "$mode" = full ]; then
      for np in 2 4 8 16; do configs+=("$planner $transport $np"); done
    else
      configs+=("$planner $transport 4")
    fi
  done
done
[ "$mode" = full ] || configs+=("mcf p2p 2" "mcf p2p 8" "mcf p2p 16")

mkdir -p "$out"  # each configuration's log goes beside its directory, before run.sh makes it
passed=0 failed=0 failures=()
for c in "${configs[@]}"; do
  read -r planner transport np <<<"$c"
  dir="$out/$planner-$transport-np$np"
  small=(); [ "$mode" = small ] && small=(--small)
  status=0
  "$here/run.sh" "${small[@]}" --out "$dir" --preload "$lib" -x OPTIQ_TOPOLOGY="$(topology_for "$np")" \
    -x OPTIQ_PLANNER="$planner" -x OPTIQ_TRANSPORT="$transport" -x OPTIQ_VERBOSE=1 "$np" >"$dir.log" 2>&1 || status=$?
  verdict=$(tail -n 1 "$dir.log")
  untaken=""
  if [ -f "$dir/results.csv" ]; then
    for t in $expect_taken; do
      row=$(awk -F, -v t="$t" '$2 == t {print $0}' "$dir/results.csv")
      taken=$(sed -n 's/.* taken=\([0-9]*\).*/\1/p' <<<"$row")
      passed_on=$(sed -n 's/.* passed=\([0-9]*\).*/\1/p' <<<"$row")
      # A program may make no all-to-all at some rank counts (alltoallv0 needs more than 2).
      [ "${taken:-0}" -gt 0 ] || [ "${passed_on:-0}" -eq 0 ] || untaken="$untaken $t"
    done
  fi
  if [ $status -eq 0 ] && [ -z "$untaken" ]; then
    passed=$((passed + 1))
    echo "ok   $planner/$transport np=$np: $verdict"
  else
    failed=$((failed + 1))
    why=$verdict
    [ -z "$untaken" ] || why="$why; optiq took no call in:$untaken"
    failures+=("$planner/$transport np=$np: $why (log: $dir.log)")
    echo "FAIL $planner/$transport np=$np: $why"
  fi
done
for f in "${failures[@]}"; do echo "failed: $f"; done
echo "external: $passed passed, $failed failed"
[ $failed -eq 0 ]
