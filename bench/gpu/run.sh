#!/bin/bash
# kkrace's GPU overhead: each workload built by nvcc alone (plain), run
# plain, with CUPTI alone (cupti_floor.so: the same launch callbacks, which
# do nothing), and with the runtime preloaded, and built with kkrace-clang++
# as host compiler (-fsanitize=kkrace); wall time of the timed loop, best of
# REPS.
#   bench/gpu/run.sh build DRIVER OUTDIR      (needs nvcc, not a GPU; with
#                                             KOKKOS=<prefix of a Kokkos
#                                             built for CUDA>, kokkos_cg too)
#   bench/gpu/run.sh run LIBDIR OUTDIR [REPS]  (on the GPU machine; extra
#                                             KKRACE_OPTIONS in $KKRACE_EXTRA)
#   bench/gpu/run.sh rounds LIBDIR OUTDIR [ROUNDS] [LAUNCHES]
#       small_kernels with LAUNCHES launches (400000), plain, preloaded and
#       instrumented in turn, ROUNDS times (9), each run pinned to one core
#       (CPU, 2 by default): each round's ratios, and the medians of the
#       times and of the ratios.  A loop of launches that do almost nothing
#       is limited by the host, whose speed moves from one run to the next
#       by as much as kkrace costs; rounds of the three builds side by side
#       compare runs made under the same conditions.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1
if [ "$mode" = build ]; then
  driver=$2 out=$3
  mkdir -p "$out"
  cuda=$(dirname "$(dirname "$(command -v nvcc)")")
  nvcc -O2 -shared -Xcompiler -fPIC -I"$cuda/extras/CUPTI/include" \
    -o "$out/cupti_floor.so" "$here/cupti_floor.c" \
    -L"$cuda/extras/CUPTI/lib64" -L"$cuda/lib" -lcupti
  for w in small_kernels large_copies pipeline; do
    nvcc -O2 -arch=sm_90 -o "$out/$w.plain" "$here/$w.cu"
    nvcc -O2 -arch=sm_90 -ccbin "$driver" -Xcompiler -fsanitize=kkrace \
      -o "$out/$w.kkrace" "$here/$w.cu" -lcudart
  done
  if [ -n "${KOKKOS:-}" ]; then # (runs plain and preloaded only)
    nvcc -O2 -arch=sm_90 -x cu -std=c++17 --extended-lambda -I"$KOKKOS/include" \
      -o "$out/kokkos_cg.plain" "$here/kokkos_cg.cpp" -L"$KOKKOS/lib" \
      -lkokkoscore -lcuda -ldl
  fi
  exit 0
fi
if [ "$mode" = rounds ]; then
  libdir=$2 out=$3 rounds=${4:-9} launches=${5:-400000} cpu=${CPU:-2}
  pin() { if command -v taskset >/dev/null; then taskset -c "$cpu" "$@"; else "$@"; fi; }
  once() { pin "$@" "$launches" | sed -n 's/^time_ms=//p'; }
  kk="exitcode=0 ${KKRACE_EXTRA:-}"
  printf "%-6s %10s %10s %6s %10s %6s\n" round plain_ms preload_ms ratio \
    kkrace_ms ratio
  rows=()
  for r in $(seq "$rounds"); do
    p=$(once "$out/small_kernels.plain")
    l=$(KKRACE_OPTIONS="$kk" LD_PRELOAD="$libdir/libkkrace.so $libdir/libkkrace_cupti.so" once "$out/small_kernels.plain")
    k=$(KKRACE_OPTIONS="$kk" once "$out/small_kernels.kkrace")
    printf "%-6s %10.1f %10.1f %6.3f %10.1f %6.3f\n" "$r" "$p" "$l" \
      "$(awk "BEGIN{print $l/$p}")" "$k" "$(awk "BEGIN{print $k/$p}")"
    rows+=("$p $l $k")
  done
  printf '%s\n' "${rows[@]}" | awk '
    function median(a, n,   i, j, t) {
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    { n++; p[n] = $1; l[n] = $2; k[n] = $3; rl[n] = $2 / $1; rk[n] = $3 / $1 }
    END {
      printf "median  %10.1f %10.1f %6.3f %10.1f %6.3f   (times; ratios of medians)\n",
        median(p, n), median(l, n), median(l, n) / median(p, n),
        median(k, n), median(k, n) / median(p, n)
      printf "median of the rounds'"'"' ratios: preloaded %.3f, instrumented %.3f\n",
        median(rl, n), median(rk, n)
    }'
  exit 0
fi
libdir=$2 out=$3 reps=${4:-5}
best() { # best time_ms of $reps runs of "$@"
  local b=
  for _ in $(seq "$reps"); do
    t=$("$@" | sed -n 's/^time_ms=//p')
    if [ -z "$b" ] || awk "BEGIN{exit !($t < $b)}"; then b=$t; fi
  done
  echo "$b"
}
printf "%-14s %10s %10s %6s %10s %6s %10s %6s\n" workload plain_ms cupti_ms ratio \
  preload_ms ratio kkrace_ms ratio
for w in small_kernels large_copies pipeline; do
  p=$(best "$out/$w.plain")
  c=$(LD_PRELOAD="$out/cupti_floor.so" best "$out/$w.plain")
  l=$(KKRACE_OPTIONS="exitcode=0 ${KKRACE_EXTRA:-}" LD_PRELOAD="$libdir/libkkrace.so $libdir/libkkrace_cupti.so" best "$out/$w.plain")
  k=$(KKRACE_OPTIONS="exitcode=0 ${KKRACE_EXTRA:-}" best "$out/$w.kkrace")
  printf "%-14s %10.1f %10.1f %6.2f %10.1f %6.2f %10.1f %6.2f\n" "$w" "$p" \
    "$c" "$(awk "BEGIN{print $c/$p}")" "$l" "$(awk "BEGIN{print $l/$p}")" \
    "$k" "$(awk "BEGIN{print $k/$p}")"
done
if [ -x "$out/kokkos_cg.plain" ]; then
  p=$(best "$out/kokkos_cg.plain")
  l=$(KKRACE_OPTIONS="exitcode=0 ${KKRACE_EXTRA:-}" LD_PRELOAD="$libdir/libkkrace.so $libdir/libkkrace_cupti.so" best "$out/kokkos_cg.plain")
  c=$(LD_PRELOAD="$out/cupti_floor.so" best "$out/kokkos_cg.plain")
  printf "%-14s %10.1f %10.1f %6.2f %10.1f %6.2f %10s %6s\n" kokkos_cg "$p" \
    "$c" "$(awk "BEGIN{print $c/$p}")" "$l" "$(awk "BEGIN{print $l/$p}")" - -
fi
