#!/usr/bin/env bash
# The whole test suite: GoogleTest and the MPI runtime tests through ctest, the C++ tests and a
# share of the MPI tests again under AddressSanitizer and UndefinedBehaviorSanitizer, MPICH's
# all-to-all tests under the PMPI interposer (tests/external), then pytest (two workers).
# Run scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
ctest --test-dir build/cpp --output-on-failure -j2

# -Og: the sanitized GoogleTest suite runs in a quarter of its -O0 time (on 2 cores here, 51 s
# instead of 204 s, 160 s of them the random-pattern planner test) for 20% more compile time;
# -O1 runs it in 43 s but doubles the compile time. No assert() in the code depends on the
# build type, and every test still runs sanitized, the Mira-scale ones too (6 s).
SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -Og"
# The MPI programs run sanitized below, with their arguments; 4 ranks each.
mpi_sanitized=("mpi_exchange --cases 150 --seed 44" mpi_api mpi_errors mpi_budget c_api
               "mpi_sparse --cases 100 --seed 44" mpi_sparse_errors mpi_sparse_barrier c_sparse mpi_qos
               mpi_ended_everywhere)
cmake -S . -B build/sanitize -G Ninja -DCMAKE_BUILD_TYPE=Debug -DOPTIQ_BUILD_TESTS=ON \
  -DCMAKE_CXX_FLAGS="$SANITIZE" -DCMAKE_C_FLAGS="$SANITIZE" >/dev/null
# Only the programs run here: the drivers, the interposer, the examples and the SMPI builds of the
# sparse tests (plain smpicxx, not sanitized) are built and tested by build/cpp already.
targets=(optiq_tests)
if [ -d build/sanitize/tests/mpi ]; then  # the runtime's tests exist when CMake found MPI
  targets+=(optiq_schedule_tests)
  for t in "${mpi_sanitized[@]}"; do targets+=("${t%% *}"); done
fi
cmake --build build/sanitize -j2 --target "${targets[@]}" >/dev/null
echo "== C++ tests under ASan + UBSan"
build/sanitize/tests/cpp/optiq_tests --gtest_brief=1
if [ -d build/sanitize/tests/mpi ]; then
  build/sanitize/tests/mpi/optiq_schedule_tests --gtest_brief=1
  echo "== MPI runtime tests under ASan + UBSan (4 ranks)"
  # Run as root with more ranks than cores; Open MPI's own allocations outlive MPI_Finalize,
  # so leak reports would be about it, not about optiq.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  export ASAN_OPTIONS=detect_leaks=0
  for t in "${mpi_sanitized[@]}"; do
    # shellcheck disable=SC2086  # $t carries the program's arguments
    timeout 300 mpirun -np 4 build/sanitize/tests/mpi/$t | tail -1
  done
fi

if [ -f build/cpp/src/pmpi/liboptiq_pmpi.so ]; then
  echo "== MPICH's all-to-all tests, unmodified, under the PMPI interposer"
  tests/external/build.sh >/dev/null
  tests/external/matrix.sh --small --lib build/cpp/src/pmpi/liboptiq_pmpi.so
fi

fuzz/run.sh  # every parser's libFuzzer harness for 10 s (fuzz/README.md)

# Two workers: one at a time, the tests keep one of the two cores busy.
.venv/bin/python -m pytest -q -n 2 tests/python
