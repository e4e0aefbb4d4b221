// A 2D heat step whose kernel treats the boundary in a branch of its own
// (if (i == 0 || j == 0 || i == n - 1 || j == n - 1)) and the interior in
// the other, reading the four neighbours; the steps swap the two Views.
// The interior's reads are checked before each row for the iterations that
// make them (all but the row's first and last): none reaches the boundary
// strands' elements, nothing races.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <utility>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double **> u("u", n, n), v("v", n, n);
    Kokkos::deep_copy(u, 1.0);
    for (int step = 0; step < 4; step++) {
      Kokkos::parallel_for(
          "heat", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}),
          KOKKOS_LAMBDA(const int i, const int j) {
            if (i == 0 || j == 0 || i == n - 1 || j == n - 1) {
              v(i, j) = 0;
              return;
            }
            v(i, j) = u(i, j) + 0.1 * (u(i - 1, j) + u(i + 1, j) +
                                       u(i, j - 1) + u(i, j + 1) - 4 * u(i, j));
          });
      std::swap(u, v);
    }
    Kokkos::fence();
    printf("%g\n", u(n / 2, n / 2));
  }
  Kokkos::finalize();
  return 0;
}
