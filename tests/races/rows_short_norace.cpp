// Short rows written one element at a time (the twin of rows_short_race),
// with nothing unordered: triangles of ints, one int and one double per
// iteration, and a sparse matrix's rows of 7 doubles and 7 ints stored
// with vector instructions, in Views that span several chunks of shadow;
// read back by later kernels (through the triangles' corners, and a row
// of the matrix per iteration), rewritten, and read by the host after a
// fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

__attribute__((noinline)) int value_of(int i, int k) { return (i * 31 + k) % 1000; }

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000, per_row = 7;
    Kokkos::View<int **> tri("tri", n, 3);
    Kokkos::View<int *> one("one", n);
    Kokkos::View<double *> dbl("dbl", n), y("y", n);
    Kokkos::View<double *> val("val", n * per_row);
    Kokkos::View<int *> col("col", n * per_row);
    // (Row lengths the compiler cannot see.)
    const int K = argc > 100 ? atoi(argv[1]) : 3;
    Kokkos::parallel_for("tri", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        tri(i, k) = value_of(i, k) % n;
    });
    Kokkos::parallel_for("one", n, KOKKOS_LAMBDA(const int i) { one(i) = value_of(i, 0); });
    Kokkos::parallel_for("dbl", n, KOKKOS_LAMBDA(const int i) { dbl(i) = value_of(i, 1) * 0.5; });
    Kokkos::parallel_for("csr", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < per_row; ++k) {
        int j = i + (k - per_row / 2) * 97;
        col(i * per_row + k) = ((j % n) + n) % n;
        val(i * per_row + k) = k == per_row / 2 ? 4.0 : -0.5;
      }
    });
    for (int r = 0; r < 2; ++r) {
      Kokkos::parallel_for("corners", n, KOKKOS_LAMBDA(const int i) {
        double s = one(i);
        for (int k = 0; k < K; ++k)
          s += dbl(tri(i, k));
        y(i) = s;
      });
      Kokkos::parallel_for("spmv", n, KOKKOS_LAMBDA(const int i) {
        double s = 0;
        for (int k = 0; k < per_row; ++k)
          s += val(i * per_row + k) * y(col(i * per_row + k));
        dbl(i) = s;
      });
    }
    Kokkos::parallel_for("touch", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        tri(i, k) = value_of(k, i) % n;
      one(i) += 1;
    });
    Kokkos::fence();
    printf("%d %d %g %g %d\n", tri(n - 5, 1), one(7), dbl(9), val(11), col(13));
  }
  Kokkos::finalize();
  return 0;
}
