// A mesh's elements each read the values at their four corners, two pairs
// of adjacent doubles, u(c) and u(c + 1), u(c + n + 1) and u(c + n + 2):
// kkrace checks each pair with one check of 16 bytes, which begins on 16
// bytes or between (c even or odd).  The last element rewrites, in u1, the
// last corner of the second row (2n + 1: only ever the second double of a
// pair, one that begins on 16 bytes) and in u2 the first corner of the
// fourth row (3n + 3: only ever the first double of a pair, one that
// begins between).  Two races, each reported at the double that the
// write meets.
// EXPECT: data-race view=u1 subkind=iteration-overlap nodes=parallel_for:corners1,parallel_for:corners1 lines=26,28
// EXPECT: data-race view=u2 subkind=iteration-overlap nodes=parallel_for:corners2,parallel_for:corners2 lines=32,34
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = argc > 1 ? atoi(argv[1]) : 8, last = n * n - 1;
    const int nodes = (n + 1) * (n + 1);
    Kokkos::View<double *> u1("u1", nodes), u2("u2", nodes), f("f", n * n);
    Kokkos::parallel_for("init", nodes, KOKKOS_LAMBDA(const int i) { u1(i) = u2(i) = i; });
    Kokkos::fence();
    Kokkos::parallel_for("corners1", n * n, KOKKOS_LAMBDA(const int e) {
      const int i = e / n, j = e % n, c = i * (n + 1) + j;
      f(e) = u1(c) + u1(c + 1) + u1(c + n + 1) + u1(c + n + 2);
      if (e == last)
        u1(2 * n + 1) = 0;
    });
    Kokkos::parallel_for("corners2", n * n, KOKKOS_LAMBDA(const int e) {
      const int i = e / n, j = e % n, c = i * (n + 1) + j;
      f(e) += u2(c) + u2(c + 1) + u2(c + n + 1) + u2(c + n + 2);
      if (e == last)
        u2(3 * n + 3) = 0;
    });
    Kokkos::fence();
    double s = 0;
    for (int k = 0; k < n * n; ++k) s += f(k);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
