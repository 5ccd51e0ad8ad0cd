#!/usr/bin/env bash
# One-step set-up on a fresh Debian 12 machine (or again on a used one: every step is
# idempotent and incremental): system build tools, Open MPI and SimGrid if missing, a virtual
# environment in .venv/ with the optiq package installed, and the C++ build (core, MPI
# runtime, tests) in build/cpp.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*" >&2; }

need_apt=()
command -v cmake >/dev/null || need_apt+=(cmake)
command -v ninja >/dev/null || need_apt+=(ninja-build)
command -v g++ >/dev/null || need_apt+=(g++)
[ -f /usr/include/gtest/gtest.h ] || need_apt+=(libgtest-dev)
[ -f /usr/include/nlohmann/json.hpp ] || need_apt+=(nlohmann-json3-dev)
command -v clang++ >/dev/null || need_apt+=(clang libfuzzer-14-dev)  # fuzz/run.sh
[ -f /usr/include/CLI/CLI.hpp ] || need_apt+=(libcli11-dev)  # the C++ drivers' command lines
[ -f /usr/include/fftw3.h ] || need_apt+=(libfftw3-dev)  # the local transforms of examples/nas_ft
command -v python3 >/dev/null || need_apt+=(python3 python3-venv python3-dev)
command -v mpicc >/dev/null || need_apt+=(openmpi-bin libopenmpi-dev)
command -v pkg-config >/dev/null || need_apt+=(pkg-config)  # optiq.pc, tested by tests/install
command -v smpicxx >/dev/null || need_apt+=(libsimgrid-dev)  # SimGrid SMPI: optiq simulate
# Optional (installed when we are root): the Python package's build and build/cpp compile the same
# core and runtime with the same flags, so with ccache the second takes those objects from the first.
command -v ccache >/dev/null || [ "$(id -u)" -ne 0 ] || need_apt+=(ccache)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    say "missing ${need_apt[*]}; install them (apt-get install ${need_apt[*]}) or run as root"
    exit 1
  fi
  say "installing ${need_apt[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  say "creating .venv"
  python3 -m venv .venv
fi
say "installing Python build and runtime dependencies"
# Every Python package at the version in constraints.txt (the tested set).
pin=(-c constraints.txt)
.venv/bin/python -m pip install -q "${pin[@]}" pip
.venv/bin/python -m pip install -q "${pin[@]}" scikit-build-core nanobind numpy matplotlib highspy pytest hypothesis
# Both builds below through ccache when it is there (empty otherwise, so that a build configured
# with it earlier stops using it), and with the same compiler names: scikit-build-core would take
# Python's (gcc, x86_64-linux-gnu-g++, ...) and CMake the system's c++, and ccache keeps them apart.
launcher=""
command -v ccache >/dev/null && launcher=ccache
launch=(CMAKE_C_COMPILER_LAUNCHER="$launcher" CMAKE_CXX_COMPILER_LAUNCHER="$launcher")
export CC="${CC:-gcc}" CXX="${CXX:-g++}"
say "building and installing the optiq package"
.venv/bin/python -m pip install -q "${pin[@]}" --no-build-isolation "${launch[@]/#/--config-settings=cmake.define.}" \
  ".[plot,test]"

say "building the C++ core, the MPI runtime and their tests"
cmake -S . -B build/cpp -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPTIQ_BUILD_TESTS=ON "${launch[@]/#/-D}" >/dev/null
cmake --build build/cpp -j2 >/dev/null
say "ready: .venv/bin/optiq"
