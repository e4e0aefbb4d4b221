// A sparse product by rows of a RangePolicy kernel (each row the
// iteration's own loop, `val(k) * x(col(k))`, with rows of 5 so that the
// compiler's unrolled loop leaves a remainder: the gather's call with the
// values as its companion) makes no report: every iteration reads its own
// row's values and indices, and elements of x that other rows read too;
// the host changes the values between two products, after a fence; and
// rows of 3, shorter than the unrolled loop's step.  The results are
// checked.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    const int n = 500, per_row = 5;
    Kokkos::View<int *> rowptr("rowptr", n + 1), col("col", n * per_row);
    Kokkos::View<double *> val("val", n * per_row), x("x", n), y("y", n);
    Kokkos::parallel_for("matrix", n, KOKKOS_LAMBDA(const int i) {
      rowptr(i + 1) = (i + 1) * per_row;
      for (int k = 0; k < per_row; ++k) {
        col(i * per_row + k) = (i + (k - per_row / 2) * 37 + n) % n;
        val(i * per_row + k) = k == per_row / 2 ? 4.0 : -1.0;
      }
      x(i) = 1.0;
    });
    Kokkos::fence();
    for (int it = 0; it < 2; ++it) {
      Kokkos::parallel_for("rows", n, KOKKOS_LAMBDA(const int i) {
        double s = 0;
        for (int k = rowptr(i); k < rowptr(i + 1); ++k)
          s += val(k) * x(col(k));
        y(i) = s;
      });
      Kokkos::fence();
      // (Row sums: 4 - 4 = 0, then 8 - 4 = 4.)
      if (y(17) != (it == 0 ? 0.0 : 4.0))
        bad = 1;
      for (int i = 0; i < n; ++i)
        val(i * per_row + per_row / 2) = 8.0;
    }
    // Rows of 3, shorter than the unrolled loop's step: -1 + -1 + 8.
    const int m = argc > 100 ? 4 : 3;
    Kokkos::parallel_for("short", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = rowptr(i); k < rowptr(i) + m; ++k)
        s += val(k) * x(col(k));
      y(i) = s;
    });
    Kokkos::fence();
    if (y(17) != 6.0)
      bad = 1;
    printf("%g\n", y(17));
  }
  Kokkos::finalize();
  return bad;
}
