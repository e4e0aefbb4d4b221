// Each iteration sums the whole of x in an inner loop (the reads of all
// iterations are shared) and writes its own element of sums; then a second
// kernel updates x from sums, after the first on the same instance.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double *> x("x", n), sums("sums", n);
    Kokkos::View<double **> m("m", n, 3);
    for (int r = 0; r < 3; ++r) {
      Kokkos::parallel_for("sums", n, KOKKOS_LAMBDA(const int i) {
        double s = 0;
        for (int j = 0; j < n; ++j)
          s += x(j) * m(j, 0) + m(j, 1) * m(i, 2);
        sums(i) = s;
      });
      Kokkos::parallel_for("update", n, KOKKOS_LAMBDA(const int i) {
        x(i) += 1e-3 * sums(i);
        for (int d = 0; d < 3; ++d)
          m(i, d) = x(i) + d;
      });
    }
    Kokkos::fence();
    printf("%g\n", x(0));
  }
  Kokkos::finalize();
  return 0;
}
