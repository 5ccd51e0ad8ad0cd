#!/usr/bin/env bash
# Builds the libFuzzer harnesses in build/fuzz and runs each for SECONDS (default 10), starting
# from the committed seeds in fuzz/corpus/NAME and the corpus earlier runs grew in
# build/fuzz/corpus/NAME. Exit status 1 when a harness crashed or broke an invariant; the
# input that did it is in build/fuzz/artifacts/. See fuzz/README.md.
#
#   fuzz/run.sh [SECONDS] [NAME...]     NAME: bytes, topology, requests, plan, graph, import (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
[ $# -gt 0 ] && shift
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(bytes topology requests plan graph import)

command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (apt-get install clang libfuzzer-14-dev)" >&2; exit 2; }
cmake -S fuzz -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DOPTIQ_BUILD_FUZZERS=ON >/dev/null
cmake --build build/fuzz -j2 >/dev/null

status=0
for name in "${names[@]}"; do
  corpus=build/fuzz/corpus/$name
  mkdir -p "$corpus" build/fuzz/artifacts
  log=build/fuzz/$name.log
  # 2 GiB of memory and 10 s per input at most: more is a finding too.
  if build/fuzz/fuzz_"$name" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
       -dict=fuzz/dict/"$name".dict -artifact_prefix=build/fuzz/artifacts/"$name"- \
       "$corpus" fuzz/corpus/"$name" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: $name: ${runs:-?} inputs in ${seconds} s, corpus $(find "$corpus" -type f | wc -l), nothing found"
  else
    echo "fuzz: $name: FAILED, see $log and build/fuzz/artifacts/$name-*" >&2
    grep -m3 -E "ERROR|invariant|runtime error" "$log" >&2 || tail -5 "$log" >&2
    status=1
  fi
done
exit $status
