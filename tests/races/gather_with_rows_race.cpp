// A sparse product by rows of a RangePolicy kernel (each row the
// iteration's own loop, `val(k) * x(col(k))` for k in the row): the
// loop's values and indices beside its gather are checked, wherever the
// compiler's unrolling leaves them (the gather's call, with the values as
// its companion, or their own loop checks).  Iteration 7 writes the last
// value of row 8, and iteration 2 the last index of row 5, which
// iterations 8 and 5 read; the host rewrites a value while the kernel
// may still run (no fence).  Rows of 3, shorter than the unrolled loop's
// step (the gather's call with its companion): iteration 3 writes the
// last value of row 4, which iteration 4 reads.  A gather that only the
// unrolled loop's second copy reads: iteration 9 writes the element of x2
// that row 12's third index names, and nothing else reads it.
// EXPECT: data-race view=val subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=39,42
// EXPECT: data-race view=col subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows
// EXPECT: data-race view=val subkind=iteration-overlap nodes=parallel_for:short,parallel_for:short lines=52,55
// EXPECT: data-race view=x2 subkind=iteration-overlap nodes=parallel_for:copies,parallel_for:copies lines=70,73
// EXPECT: data-race view=val subkind=missing-fence nodes=host,parallel_for:rows lines=46,39
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64, per_row = 5;
    Kokkos::View<int *> rowptr("rowptr", n + 1), col("col", n * per_row);
    Kokkos::View<double *> val("val", n * per_row), x("x", n), y("y", n);
    Kokkos::parallel_for("matrix", n, KOKKOS_LAMBDA(const int i) {
      rowptr(i + 1) = (i + 1) * per_row;
      for (int k = 0; k < per_row; ++k) {
        col(i * per_row + k) = (i + 3 * k) % n;
        val(i * per_row + k) = 1.0 + k;
      }
      x(i) = i;
    });
    Kokkos::fence();
    Kokkos::parallel_for("rows", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = rowptr(i); k < rowptr(i + 1); ++k)
        s += val(k) * x(col(k));
      y(i) = s;
      if (i == 7)
        val(8 * per_row + 4) = 2;
      if (i == 2)
        col(5 * per_row + 4) = 1;
    });
    val(3) = 5;
    Kokkos::fence();
    const int m = argc > 100 ? 4 : 3; // (rows shorter than the unrolled loop's step)
    Kokkos::parallel_for("short", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = rowptr(i); k < rowptr(i) + m; ++k)
        s += val(k) * x(col(k));
      y(i) = s;
      if (i == 3)
        val(4 * per_row + 2) = 3;
    });
    Kokkos::fence();
    // Indices that only the unrolled loop's later copies read (each row's
    // second to fourth: an element of x2 apiece; its first and last: x2(0)).
    Kokkos::View<int *> col2("col2", n * per_row);
    Kokkos::View<double *> x2("x2", 4 * n);
    Kokkos::parallel_for("indices", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < per_row; ++k)
        col2(i * per_row + k) = k == 0 || k == per_row - 1 ? 0 : 1 + 3 * i + k - 1;
    });
    Kokkos::fence();
    Kokkos::parallel_for("copies", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = rowptr(i); k < rowptr(i + 1); ++k)
        s += x2(col2(k));
      y(i) = s;
      if (i == 9)
        x2(1 + 3 * 12 + 1) = 1;
    });
    Kokkos::fence();
    printf("%g %g\n", y(1), y(9));
  }
  Kokkos::finalize();
  return 0;
}
