#!/usr/bin/env bash
# Installs what kkrace needs from Debian 12's packages and builds kkrace in
# build/.  Safe to run again: it installs only what is missing and rebuilds
# only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  clang-19 llvm-19 llvm-19-dev libclang-rt-19-dev   # compiler, pass API, tsan for bench/
  cmake ninja-build python3 python3-jsonschema      # build and tests
  libcriterion-dev uthash-dev libunwind-dev         # unit tests, runtime
  libtrilinos-kokkos-dev                            # Kokkos 3.4 for tests and examples
  libtrilinos-kokkos-kernels-dev                    # Kokkos Kernels 3.4 for tests/kernels
  graphviz                                          # computation graph pictures
  openmpi-bin libopenmpi-dev                        # libkkrace_mpi and tests/mpi
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "kkrace setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -G Ninja \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build
