// A ScatterView histogram with one copy per thread (ScatterDuplicated, the
// default on OpenMP and Threads), as in scatter_view_duplicated_norace.cpp,
// whose kernel also writes a neighbour's element of another View while it
// holds the access object: the copy is the thread's own, the neighbour's
// element is not.
// EXPECT: data-race view=w subkind=iteration-overlap nodes=parallel_for:scatter,parallel_for:scatter lines=29,30
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
    Kokkos::View<double *> h("h", bins), w("w", n + 2);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) { key(i) = (i * 7) % bins; });
    KE::ScatterView<double *, Kokkos::LayoutRight, space, KE::ScatterSum,
                    KE::ScatterDuplicated, KE::ScatterNonAtomic>
        s(h);
    Kokkos::parallel_for(
        "scatter", n, KOKKOS_LAMBDA(const int i) {
          auto a = s.access();
          a(key(i)) += 1.0;
          w(i) = 1.0;
          w(i + 2) = 0.0;
        });
    KE::contribute(h, s);
    Kokkos::fence();
    printf("%g %g\n", h(1), w(1));
  }
  Kokkos::finalize();
  return 0;
}
