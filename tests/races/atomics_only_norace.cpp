// Atomic adds, atomic fetch-adds and compare-exchange on shared counters: no
// race.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<int *> bins("bins", 10);
    Kokkos::View<double> total("total");
    Kokkos::View<int> maxv("maxv");
    Kokkos::parallel_for(
        "bin", n, KOKKOS_LAMBDA(const int i) {
          Kokkos::atomic_add(&bins(i % 10), 1);
          Kokkos::atomic_fetch_add(&total(), 0.5 * i);
          Kokkos::atomic_fetch_max(&maxv(), i);
        });
    Kokkos::fence();
    printf("%d %g %d\n", bins(3), total(), maxv());
  }
  Kokkos::finalize();
  return 0;
}
