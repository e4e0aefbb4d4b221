// A ScatterView histogram with the backend's defaults (on Serial: one copy,
// non-atomic contributions; on OpenMP or Threads: a copy per thread; on GPUs:
// atomic contributions), contributed into the View after the kernel.
// Portable code: contributions through access() never race with each other.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <cstdio>

namespace KE = Kokkos::Experimental;
using space = Kokkos::DefaultExecutionSpace;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100, bins = 8;
    Kokkos::View<int *> key("key", n);
    Kokkos::View<double *> h("h", bins);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) { key(i) = (i * 7) % bins; });
    KE::ScatterView<double *> s(h);
    Kokkos::parallel_for(
        "scatter", n, KOKKOS_LAMBDA(const int i) {
          auto a = s.access();
          a(key(i)) += 1.0;
        });
    KE::contribute(h, s);
    Kokkos::fence();
    printf("%g\n", h(1));
  }
  Kokkos::finalize();
  return 0;
}
