// A mesh's elements each read the values at their four corners, two pairs
// of adjacent doubles, u(c) and u(c + 1), u(c + n + 1) and u(c + n + 2),
// which kkrace checks with one check of 16 bytes each, beginning on 16
// bytes or between (c even or odd): no element writes what another reads,
// and the host reads the sums after a fence.  No race.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = argc > 1 ? atoi(argv[1]) : 8;
    const int nodes = (n + 1) * (n + 1);
    Kokkos::View<double *> u1("u1", nodes), u2("u2", nodes), f("f", n * n);
    Kokkos::parallel_for("init", nodes, KOKKOS_LAMBDA(const int i) { u1(i) = u2(i) = i; });
    Kokkos::fence();
    Kokkos::parallel_for("corners1", n * n, KOKKOS_LAMBDA(const int e) {
      const int i = e / n, j = e % n, c = i * (n + 1) + j;
      f(e) = u1(c) + u1(c + 1) + u1(c + n + 1) + u1(c + n + 2);
    });
    Kokkos::parallel_for("corners2", n * n, KOKKOS_LAMBDA(const int e) {
      const int i = e / n, j = e % n, c = i * (n + 1) + j;
      f(e) += u2(c) + u2(c + 1) + u2(c + n + 1) + u2(c + n + 2);
    });
    Kokkos::fence();
    double s = 0;
    for (int k = 0; k < n * n; ++k) s += f(k);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
