// The same heat step, but the second column's iterations also write the
// boundary element to their left, which the boundary strand of that row
// writes too: a race on v(i, 0) for the 62 interior rows.  (At -O2 the
// interior's accesses are checked before each row, the write of v(i, 0) for
// the one iteration that makes it.)
// EXPECT: data-race view=v subkind=iteration-overlap nodes=parallel_for:heat,parallel_for:heat lines=21,25
// EXPECT-TEXT: raced on 62 elements
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double **> u("u", n, n), v("v", n, n);
    Kokkos::deep_copy(u, 1.0);
    Kokkos::parallel_for(
        "heat", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}),
        KOKKOS_LAMBDA(const int i, const int j) {
          if (i == 0 || j == 0 || i == n - 1 || j == n - 1) {
            v(i, j) = 0;
            return;
          }
          if (j == 1)
            v(i, 0) = u(i, 0);
          v(i, j) = u(i, j) + 0.1 * (u(i - 1, j) + u(i + 1, j) +
                                     u(i, j - 1) + u(i, j + 1) - 4 * u(i, j));
        });
    Kokkos::fence();
    printf("%g\n", v(n / 2, n / 2));
  }
  Kokkos::finalize();
  return 0;
}
