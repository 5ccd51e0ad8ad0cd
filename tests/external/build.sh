#!/usr/bin/env bash
# Builds the external test programs with mpicc ($MPICC) into the cache.
#
#   tests/external/build.sh [--clean]
#
# Gets the sources first if they are not cached (get_sources.sh). For MPICH's test suite it
# runs the suite's own configure (CC=mpicc, C only) out of tree in
# $OPTIQ_EXTERNAL_CACHE/build/mpich-VERSION, builds the suite's helper library (util/, the
# MTest framework) with the suite's own Makefile, then compiles each program listed in
# mpich_tests.txt from its unmodified source with the flags the suite's Makefile uses, into
# build/mpich-VERSION/bin. The suite's other helper, dtpools, is not built: it does not compile
# against Open MPI (it calls MPI-1 functions removed in MPI-3) and none of these programs use it.
# --clean removes the build directory first. Incremental otherwise.
set -euo pipefail
. "$(dirname "$0")/common.sh"

clean=0
for a in "$@"; do
    case "$a" in
        --clean) clean=1 ;;
        -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
        *) die "unknown argument '$a' (try --help)" ;;
    esac
done

command -v "$MPICC" >/dev/null 2>&1 || die "$MPICC not found (install Open MPI: scripts/setup.sh)"
"$(dirname "$0")/get_sources.sh" mpich

if [ $clean -eq 1 ]; then rm -rf "$MPICH_BUILD"; fi
mkdir -p "$MPICH_BUILD" "$MPICH_BIN"

JOBS=$(nproc 2>/dev/null || echo 1)
if [ "$JOBS" -gt 2 ]; then JOBS=2; fi

# The suite's configure: C tests only; no Fortran, C++, MPI-IO, spawn; MPICH extensions off.
CONFIGURE_ARGS=(CC="$MPICC" --enable-fortran=no --disable-cxx --disable-romio --disable-spawn
                --disable-dtpools --enable-strictmpi)
mpicc_id="$(command -v "$MPICC") $("$MPICC" --version 2>/dev/null | head -n 1) $("$MPICC" --showme:version 2>/dev/null || true)"
want_stamp="$mpicc_id | ${CONFIGURE_ARGS[*]} | $(cat "$MPICH_SRC/.optiq-source")"
stamp="$MPICH_BUILD/.optiq-configured"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want_stamp" ] || [ ! -f "$MPICH_BUILD/include/mpitestconf.h" ]; then
    echo "mpich: configure (the test suite's own, ~30 s; log: $MPICH_BUILD/configure.log)"
    rm -f "$stamp"
    if ! (cd "$MPICH_BUILD" && "$MPICH_TESTS_SRC/configure" "${CONFIGURE_ARGS[@]}") \
            >"$MPICH_BUILD/configure.log" 2>&1; then
        tail -n 15 "$MPICH_BUILD/configure.log" >&2
        die "the MPICH test suite's configure failed (log: $MPICH_BUILD/configure.log)"
    fi
    echo "$want_stamp" >"$stamp"
fi

echo "mpich: util/libmtest_single.la (the suite's MTest library, its own Makefile)"
if ! make -C "$MPICH_BUILD/util" -j"$JOBS" libmtest_single.la >"$MPICH_BUILD/make-util.log" 2>&1; then
    tail -n 15 "$MPICH_BUILD/make-util.log" >&2
    die "building the MPICH test library failed (log: $MPICH_BUILD/make-util.log)"
fi
MTEST_LIB="$MPICH_BUILD/util/.libs/libmtest_single.a"
[ -f "$MTEST_LIB" ] || die "$MTEST_LIB missing after make"

# The flags of the suite's Makefile (see the compile lines in make-util.log).
CPPFLAGS_SUITE=(-DHAVE_CONFIG_H -I"$MPICH_BUILD/include" -I"$MPICH_TESTS_SRC/include"
                -I"$MPICH_TESTS_SRC/dtpools/include")
CFLAGS_SUITE=(-g -O2)

compile_one() {  # NAME SOURCE [FLAGS...]
    local name=$1 src=$MPICH_TESTS_SRC/$2
    shift 2
    local out=$MPICH_BIN/$name log=$MPICH_BUILD/logs/$name.build.log
    local flags="$* ${CPPFLAGS_SUITE[*]} ${CFLAGS_SUITE[*]} $mpicc_id"
    if [ -x "$out" ] && [ -f "$out.flags" ] && [ "$(cat "$out.flags")" = "$flags" ] &&
            [ "$out" -nt "$src" ] && [ "$out" -nt "$MTEST_LIB" ]; then
        return 0
    fi
    if "$MPICC" "$@" "${CPPFLAGS_SUITE[@]}" "${CFLAGS_SUITE[@]}" -o "$out" "$src" "$MTEST_LIB" \
            >"$log" 2>&1; then
        echo "$flags" >"$out.flags"
        echo "  built $name"
    else
        echo "  FAILED $name (log: $log)" >&2
        tail -n 5 "$log" >&2
        return 1
    fi
}
mkdir -p "$MPICH_BUILD/logs"
echo "mpich: compiling $(mpich_test_entries | wc -l) test programs with $MPICC"
failed=0
while read -r -a entry; do
    compile_one "${entry[@]}" || failed=1
done < <(mpich_test_entries)
[ $failed -eq 0 ] || die "some MPICH test programs failed to build"
echo "mpich: programs in $MPICH_BIN"
