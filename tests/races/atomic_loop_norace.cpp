// Kernels that count with atomic instructions (as Kokkos 4's atomics are)
// and read and write their own elements, one after the other with no
// fence between them: no race (the loops' accesses are checked before
// they run, the View handles that they reload around the atomics read once
// before them).
// EXPECT: no-report
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
    for (int rep = 0; rep < 3; ++rep)
      Kokkos::parallel_for(
          "count", n, KOKKOS_LAMBDA(int i) {
            __atomic_fetch_add(&bins(x(i) & 15), 1L, __ATOMIC_RELAXED);
            __atomic_fetch_add(&bins((x(i) >> 4) & 15), 2L, __ATOMIC_RELAXED);
            z(i) = y(i) * rep + z(i);
            y(i) = x(i);
          });
    Kokkos::fence();
    printf("%ld %g\n", bins(3), z(5));
  }
  Kokkos::finalize();
  return 0;
}
