#!/usr/bin/env bash
# The whole test suite: GoogleTest through ctest, then pytest. Run scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
ctest --test-dir build/cpp --output-on-failure -j2
.venv/bin/python -m pytest -q tests/python
