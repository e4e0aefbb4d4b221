#!/usr/bin/env bash
# Sets kkrace up, builds the example program examples/shift.cpp with
# -fsanitize=kkrace and runs it: it prints a race report that Serial would
# never show (and exits with status 66, as a program with reports does).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p build/examples
build/bin/kkrace-clang++ -fsanitize=kkrace -O2 -std=c++17 \
  -I/usr/include/trilinos examples/shift.cpp -o build/examples/shift \
  -ltrilinos_kokkoscore -ldl
echo "== running build/examples/shift (built with -fsanitize=kkrace)"
status=0
(cd examples && ../build/examples/shift) || status=$?
echo "== exit status $status (66: kkrace reported something)"
[ "$status" = 66 ]
