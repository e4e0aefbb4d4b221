// A kernel that counts with an atomic instruction (as Kokkos 4's atomics
// are) and reads its neighbour's element of y, which the neighbour writes:
// a race, found when the loop's accesses are checked before it runs (the
// View handles that the loop reloads around the atomic are read once
// before it).
// EXPECT: data-race view=y subkind=iteration-overlap nodes=parallel_for:count,parallel_for:count lines=22,23 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096;
    Kokkos::View<long *> bins("bins", 16);
    Kokkos::View<int *> x("x", n);
    Kokkos::View<double *> y("y", n + 1), z("z", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(int i) { x(i) = i * 7; });
    Kokkos::parallel_for(
        "count", n, KOKKOS_LAMBDA(int i) {
          __atomic_fetch_add(&bins(x(i) & 15), 1L, __ATOMIC_RELAXED);
          __atomic_fetch_add(&bins((x(i) >> 4) & 15), 2L, __ATOMIC_RELAXED);
          z(i) = y(i + 1);
          y(i) = x(i);
        });
    Kokkos::fence();
    printf("%ld %g\n", bins(3), z(5));
  }
  Kokkos::finalize();
  return 0;
}
