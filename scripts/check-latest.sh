#!/usr/bin/env bash
# Non-blocking check: the Python test suite against the newest releases of every dependency,
# in a throw-away virtual environment (constraints.txt pins what scripts/setup.sh installs).
# Run after scripts/setup.sh (the C++ build and the simulation tools come from there).
# Exit status is pytest's: a failure here means constraints.txt should not be bumped yet.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(mktemp -d)/venv
trap 'rm -rf "$(dirname "$venv")"' EXIT
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q --upgrade scikit-build-core nanobind numpy matplotlib highspy pytest hypothesis
"$venv/bin/python" -m pip install -q --no-build-isolation ".[plot,test]"
"$venv/bin/python" -m pip list --format=freeze | grep -Ei '^(highspy|numpy|matplotlib|nanobind|scikit.build.core)=='
PATH="$venv/bin:$PATH" "$venv/bin/python" -m pytest -q tests/python
