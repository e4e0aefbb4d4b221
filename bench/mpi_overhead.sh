#!/usr/bin/env bash
# The MPI workload (bench/mpi_halo.cpp) built plain and with kkrace, run
# side by side with mpirun; prints the wall times and the ratio.
#   bash bench/mpi_overhead.sh [ranks] [n] [steps] [reps]
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=${1:-2}; n=${2:-200000}; steps=${3:-200}; reps=${4:-3}
out=$(mktemp -d)
inc=/usr/include/trilinos; libs="-ltrilinos_kokkoscore -ldl"
OMPI_CXX=clang++-19 mpicxx -O2 -I$inc bench/mpi_halo.cpp -o "$out/plain" $libs
OMPI_CXX=$PWD/build/bin/kkrace-clang++ mpicxx -fsanitize=kkrace -O2 -I$inc \
  bench/mpi_halo.cpp -o "$out/kkrace" $libs
best() {
  local b=""
  for _ in $(seq "$reps"); do
    local s e
    s=$(date +%s.%N)
    mpirun --allow-run-as-root --oversubscribe -np "$ranks" "$@" "$n" "$steps" > /dev/null
    e=$(date +%s.%N)
    b=$(python3 -c "import sys; a=float('$e')-float('$s'); b='$b'; print(a if not b or a<float(b) else b)")
  done
  echo "$b"
}
tp=$(best "$out/plain")
tk=$(best "$out/kkrace")
python3 -c "print('mpi_halo ranks=$ranks n=$n steps=$steps: plain %.3f s, kkrace %.3f s, ratio %.2fx' % ($tp, $tk, $tk / $tp))"
rm -rf "$out"
