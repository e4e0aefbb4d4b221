// The counter is incremented with Kokkos::atomic_add: atomics never race
// with each other (on Serial, Kokkos 3 compiles them to plain code).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<int> count("count");
    Kokkos::View<double *> x("x", 100);
    Kokkos::parallel_for(
        "count", 100, KOKKOS_LAMBDA(const int i) {
          if (x(i) == 0.0) Kokkos::atomic_add(&count(), 1);
        });
    Kokkos::fence();
    printf("%d\n", count());
  }
  Kokkos::finalize();
  return 0;
}
