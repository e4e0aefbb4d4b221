// The twin of vector_rest_rows_race: rows of 7 doubles that each
// iteration fills in a vectorized loop and its remainder, then reads and
// rewrites, one row each, and that the host reads after a fence: nothing
// races.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 40000, m = 7 + (argc > 100);
    Kokkos::View<double *> A("A", n * m), y("y", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < m; ++i)
        A(j * m + i) = j + 0.5 * i;
    });
    Kokkos::fence();
    Kokkos::parallel_for("sum", n, KOKKOS_LAMBDA(const int j) {
      double t = 0;
      for (int i = 0; i < m; ++i)
        t += A(j * m + i);
      y(j) = t;
      A(j * m + m - 1) = t;
    });
    Kokkos::parallel_for("refill", n, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < m; ++i)
        A(j * m + i) = 2.0 * j + i;
    });
    Kokkos::fence();
    printf("%g %g\n", A(500 * m + 5), y(7));
  }
  Kokkos::finalize();
  return 0;
}
