# Sourced by the interposer's test scripts: topology_for NP prints a topology with one node per
# rank, a 2-ary torus where NP is a power of two (every rank count the tests use), else a ring.
topology_for() {
  local np=$1 dims="" n=$1
  while [ "$n" -gt 1 ] && [ $((n % 2)) -eq 0 ]; do
    dims=${dims:+${dims}x}2
    n=$((n / 2))
  done
  if [ "$n" -eq 1 ] && [ -n "$dims" ]; then echo "torus:$dims"; else echo "torus:$np"; fi
}
