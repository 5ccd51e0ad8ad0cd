#!/usr/bin/env bash
# The whole test suite: GoogleTest through ctest, the same tests again under AddressSanitizer
# and UndefinedBehaviorSanitizer, then pytest. Run scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
ctest --test-dir build/cpp --output-on-failure -j2

cmake -S . -B build/sanitize -G Ninja -DCMAKE_BUILD_TYPE=Debug -DOPTIQ_BUILD_TESTS=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" >/dev/null
cmake --build build/sanitize -j2 >/dev/null
echo "== C++ tests under ASan + UBSan"
build/sanitize/tests/cpp/optiq_tests --gtest_brief=1

.venv/bin/python -m pytest -q tests/python
