// A ScatterView with atomic contributions whose kernel also writes the
// original View directly: a plain write against the other iterations'
// atomic additions to the same element.
// EXPECT: data-race view=h subkind=iteration-overlap nodes=parallel_for:scatter,parallel_for:scatter atomic=0,1 lines=27,29
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
                    KE::ScatterNonDuplicated, KE::ScatterAtomic>
        s(h);
    Kokkos::parallel_for(
        "scatter", n, KOKKOS_LAMBDA(const int i) {
          auto a = s.access();
          if (i != 50)
            a(key(i)) += 1.0;
          else
            h(3) = -1.0;
        });
    KE::contribute(h, s);
    Kokkos::fence();
    printf("%g\n", h(3));
  }
  Kokkos::finalize();
  return 0;
}
