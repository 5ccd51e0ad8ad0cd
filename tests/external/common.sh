# Shared settings of tests/external/*.sh (sourced, not run).

# Where sources, builds and results live: outside the repository.
OPTIQ_EXTERNAL_CACHE="${OPTIQ_EXTERNAL_CACHE:-${HOME:-/tmp}/.cache/optiq/external}"

# MPICH's test suite, from the Debian source package mpich, pinned to one version.
MPICH_DEB_PACKAGE=mpich
MPICH_DEB_VERSION=4.0.2-3
MPICH_UPSTREAM_VERSION=4.0.2
MPICH_ORIG_TARBALL="mpich_${MPICH_UPSTREAM_VERSION}.orig.tar.xz"
MPICH_ORIG_SHA256=b27039f964afeb6b8a3e009c56b441cbe368c26d6d6476ad3bb7190996875860

MPICH_SRC="$OPTIQ_EXTERNAL_CACHE/src/mpich-$MPICH_UPSTREAM_VERSION"   # holds test/mpi and COPYRIGHT
MPICH_TESTS_SRC="$MPICH_SRC/test/mpi"
MPICH_BUILD="$OPTIQ_EXTERNAL_CACHE/build/mpich-$MPICH_UPSTREAM_VERSION"
MPICH_BIN="$MPICH_BUILD/bin"

MPICC="${MPICC:-mpicc}"
MPIRUN="${MPIRUN:-mpirun}"

EXTERNAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MPICH_TEST_LIST="$EXTERNAL_DIR/mpich_tests.txt"

# "NAME SOURCE FLAGS..." for each test of mpich_tests.txt, comments and blank lines dropped.
mpich_test_entries() {
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$MPICH_TEST_LIST" | awk 'NF'
}

die() {
    echo "$(basename "$0"): $*" >&2
    exit 2
}

# Runs a command as root: directly when we are root, else through sudo without a password.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo -n "$@"
    else
        die "needs root (or password-less sudo) to run: $*"
    fi
}
