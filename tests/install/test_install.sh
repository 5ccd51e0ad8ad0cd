#!/usr/bin/env bash
# Installs a build tree into an empty prefix and uses it as an outside project would:
# examples/transpose built with find_package(optiq) (shared and static) and with
# `mpicc $(pkg-config --cflags --libs optiq)`, each run byte-exact under mpirun, examples/hacc_io
# (the collective I/O of optiq/io.h) built the same way, and the
# unmodified MPI program run under the installed liboptiq_pmpi.so.
#
#   test_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
run() { mpirun -np 8 "$@" torus:2x2x2 32 | tee /dev/stderr | grep -q "correct"; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/optiq/optiq.h include/optiq/io.h include/optiq/exchange.h lib/liboptiq.so lib/liboptiq.a lib/liboptiq_exchange.so \
         lib/liboptiq_exchange.a lib/liboptiq_pmpi.so lib/cmake/optiq/optiqConfig.cmake lib/pkgconfig/optiq.pc; do
  [ -e "$prefix/$f" ] || { echo "FAILED: $f is not installed"; exit 1; }
done

echo "== find_package(optiq)"
cmake -S "$source/examples/transpose" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake" -j2 >/dev/null
run "$work/cmake/transpose-optiq"
run "$work/cmake/transpose-optiq-static"

echo "== mpicc \$(pkg-config --cflags --libs optiq)"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046  # pkg-config's words are separate arguments
mpicc -DUSE_OPTIQ "$source/examples/transpose/transpose.c" -o "$work/transpose-pc" \
  $(pkg-config --cflags --libs optiq) -Wl,-rpath,"$(pkg-config --variable=libdir optiq)"
run "$work/transpose-pc"
mpicc "$source/examples/hacc_io/hacc_io.c" -o "$work/hacc-io" \
  $(pkg-config --cflags --libs optiq) -Wl,-rpath,"$(pkg-config --variable=libdir optiq)"
mpirun -np 4 "$work/hacc-io" torus:4 2000 soa "$work/hacc.dat" | tee /dev/stderr | grep -q "read back correct"

echo "== LD_PRELOAD of the installed interposer"
mpicc "$source/examples/transpose/transpose.c" -o "$work/transpose-mpi"
out=$(mpirun -np 8 -x LD_PRELOAD="$prefix/lib/liboptiq_pmpi.so" -x OPTIQ_TOPOLOGY=torus:2x2x2 -x OPTIQ_VERBOSE=1 \
  "$work/transpose-mpi" torus:2x2x2 32 2>&1)
echo "$out"
grep -q "correct" <<<"$out" && grep -q "optiq: summary taken=1 passed=0" <<<"$out" ||
  { echo "FAILED: the installed interposer did not take the call"; exit 1; }
echo "install test passed"
