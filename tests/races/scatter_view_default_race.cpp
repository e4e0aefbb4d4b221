// A ScatterView histogram with the backend's defaults, whose kernel also
// writes the original View directly: on Serial and on GPUs the ScatterView
// adds into that very View (non-atomically on Serial, atomically on GPUs),
// so the direct write races with the other iterations' contributions.
// EXPECT: data-race view=h subkind=iteration-overlap nodes=parallel_for:scatter,parallel_for:scatter lines=26,28
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
