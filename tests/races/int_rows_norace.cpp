// The twin of int_rows_race: rows indexed by an int product, `3 * i + k`
// and `4 * i + k`, each read and written by its own iteration only, in
// kernels over [0, n) and [5, n), and read by the host after a fence:
// nothing races.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 20000;
    Kokkos::View<double *> x("x", 3 * n), y("y", 4 * n), s("s", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      s(i) = i;
      for (int k = 0; k < 3; ++k)
        x(3 * i + k) = s(i) + k;
    });
    Kokkos::parallel_for("own", n, KOKKOS_LAMBDA(const int i) {
      s(i) = x(3 * i) + x(3 * i + 2);
      for (int k = 0; k < 3; ++k)
        x(3 * i + k) += 0.5 * k;
    });
    Kokkos::parallel_for("offset", Kokkos::RangePolicy<>(5, n),
                         KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < 4; ++k)
        y(4 * i + k) = s(i) * k;
      s(i) += y(4 * i + 3);
    });
    Kokkos::fence();
    printf("%g %g\n", y(4 * 100 + 2), x(3 * 7 + 1));
  }
  Kokkos::finalize();
  return 0;
}
