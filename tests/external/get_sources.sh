#!/usr/bin/env bash
# Obtains the external test suites' sources through a package registry's ordinary client and
# unpacks them into the cache ($OPTIQ_EXTERNAL_CACHE, default ~/.cache/optiq/external).
#
#   tests/external/get_sources.sh [mpich|osu]...     (default: mpich)
#
# mpich: MPICH's test suite (test/mpi) from the Debian source package mpich, exact version
#        $MPICH_DEB_VERSION (see common.sh), fetched with `apt-get source --download-only`
#        and checked against a pinned SHA-256. When apt knows no deb-src entry, one is derived
#        at run time from the machine's own Debian entry (/etc/apt/sources.list.d/debian.sources,
#        or the "deb" lines of /etc/apt/sources.list) and `apt-get update` is run (needs root
#        or password-less sudo). Idempotent: a second run only checks the cache.
# osu:   the OSU Micro-Benchmarks. No reachable registry publishes their sources: this target
#        checks Debian once more and exits 3 with the explanation.
#
# Exit status: 0 done, 2 a registry lacks the pinned sources or a step failed, 3 osu unavailable.
set -euo pipefail
. "$(dirname "$0")/common.sh"

usage() {
    awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"
    exit "${1:-0}"
}

have_deb_source() {  # PACKAGE VERSION: does apt know this exact source version?
    apt-cache showsrc "$1" 2>/dev/null | grep -qx "Version: $2"
}

deb_src_configured() {
    grep -qsE '^[[:space:]]*(Types:.*[[:space:]]deb-src([[:space:]]|$)|deb-src[[:space:]])' \
        /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources
}

add_deb_src_entry() {
    local deb822=/etc/apt/sources.list.d/debian.sources
    if [ -f "$deb822" ]; then
        echo "get_sources: adding a deb-src entry derived from $deb822"
        sed -E 's/^Types:.*/Types: deb-src/' "$deb822" |
            as_root tee /etc/apt/sources.list.d/optiq-deb-src.sources >/dev/null
    elif grep -qsE '^deb[[:space:]]' /etc/apt/sources.list; then
        echo "get_sources: adding deb-src lines derived from /etc/apt/sources.list"
        sed -n -E 's/^deb([[:space:]])/deb-src\1/p' /etc/apt/sources.list |
            as_root tee /etc/apt/sources.list.d/optiq-deb-src.list >/dev/null
    else
        die "no Debian apt entry (debian.sources or sources.list) to derive a deb-src entry from"
    fi
}

ensure_deb_source() {  # PACKAGE VERSION
    have_deb_source "$1" "$2" && return 0
    deb_src_configured || add_deb_src_entry
    echo "get_sources: apt-get update (to read the Debian source index)"
    local log="$OPTIQ_EXTERNAL_CACHE/downloads/apt-get-update.log"
    if ! as_root apt-get update >"$log" 2>&1; then
        echo "get_sources: warning: apt-get update reported errors (see $log)" >&2
    fi
    if ! have_deb_source "$1" "$2"; then
        local known
        known=$(apt-cache showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' ' | sed 's/ $//')
        die "Debian source package $1 $2 is not available from the configured Debian archive" \
            "(apt-cache showsrc $1 lists: ${known:-nothing})"
    fi
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

get_mpich() {
    local stamp="$MPICH_SRC/.optiq-source"
    local want="debian-source $MPICH_DEB_PACKAGE $MPICH_DEB_VERSION sha256:$MPICH_ORIG_SHA256"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$MPICH_TESTS_SRC/configure" ]; then
        echo "mpich: cached, Debian source package $MPICH_DEB_PACKAGE $MPICH_DEB_VERSION in $MPICH_SRC"
        return 0
    fi
    local dl="$OPTIQ_EXTERNAL_CACHE/downloads/$MPICH_DEB_PACKAGE-$MPICH_DEB_VERSION"
    local orig="$dl/$MPICH_ORIG_TARBALL"
    mkdir -p "$dl"
    if [ ! -f "$orig" ] || [ "$(sha256_of "$orig")" != "$MPICH_ORIG_SHA256" ]; then
        ensure_deb_source "$MPICH_DEB_PACKAGE" "$MPICH_DEB_VERSION"
        echo "mpich: apt-get source --download-only $MPICH_DEB_PACKAGE=$MPICH_DEB_VERSION"
        rm -f "$dl"/*
        # apt warns that it downloads unsandboxed when _apt cannot write here: harmless.
        if ! (cd "$dl" && apt-get source --download-only -q "$MPICH_DEB_PACKAGE=$MPICH_DEB_VERSION") \
                >"$dl.log" 2>&1; then
            tail -n 5 "$dl.log" >&2
            die "apt-get source $MPICH_DEB_PACKAGE=$MPICH_DEB_VERSION failed (full log: $dl.log)"
        fi
        [ -f "$orig" ] || die "apt-get source did not produce $MPICH_ORIG_TARBALL (log: $dl.log)"
    fi
    local got
    got=$(sha256_of "$orig")
    [ "$got" = "$MPICH_ORIG_SHA256" ] ||
        die "$MPICH_ORIG_TARBALL has SHA-256 $got, expected $MPICH_ORIG_SHA256"

    # Only the test suite (and the licence) is needed: unpack those, unmodified.
    local tmp="$OPTIQ_EXTERNAL_CACHE/src/.unpack-mpich.$$"
    rm -rf "$tmp" && mkdir -p "$tmp"
    tar -xJf "$orig" -C "$tmp" "mpich-$MPICH_UPSTREAM_VERSION/test/mpi" \
        "mpich-$MPICH_UPSTREAM_VERSION/COPYRIGHT"
    rm -rf "$MPICH_SRC"
    mv "$tmp/mpich-$MPICH_UPSTREAM_VERSION" "$MPICH_SRC"
    rmdir "$tmp"
    echo "$want" >"$stamp"
    echo "mpich: unpacked test/mpi of Debian source package $MPICH_DEB_PACKAGE $MPICH_DEB_VERSION into $MPICH_SRC"
}

get_osu() {
    local found=""
    for p in osu-micro-benchmarks mvapich2 mvapich; do
        if apt-cache showsrc "$p" 2>/dev/null | grep -q '^Version:'; then found="$found $p"; fi
    done
    if [ -n "$found" ]; then
        echo "osu: apt now knows source package(s)$found, which this script does not handle yet" >&2
    else
        echo "osu: the OSU Micro-Benchmarks are not published by any package registry this" \
             "project can reach (no Debian source package osu-micro-benchmarks or mvapich*;" \
             "no PyPI or npm package of that name); not fetched (see tests/external/README.md)" >&2
    fi
    exit 3
}

targets=()
for a in "$@"; do
    case "$a" in
        -h|--help) usage 0 ;;
        mpich|osu) targets+=("$a") ;;
        *) echo "get_sources.sh: unknown argument '$a'" >&2; usage 2 ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(mpich)
mkdir -p "$OPTIQ_EXTERNAL_CACHE/downloads" "$OPTIQ_EXTERNAL_CACHE/src"
for t in "${targets[@]}"; do "get_$t"; done
