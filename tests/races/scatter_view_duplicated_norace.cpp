// A ScatterView histogram with one copy per thread (ScatterDuplicated) and
// non-atomic contributions, summed into the View by contribute() after the
// kernel: each thread adds into its own copy (on Serial, the only thread
// into the only copy).
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
    KE::ScatterView<double *, Kokkos::LayoutRight, space, KE::ScatterSum,
                    KE::ScatterDuplicated, KE::ScatterNonAtomic>
        s(h);
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
