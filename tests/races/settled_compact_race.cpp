// A sparse matrix's small arrays of int share their MiB of memory with
// other data: the kernel that fills them splits cells of that MiB, which
// become whole half-cells before the fence settles its writes, and
// compact ones after it (kkrace's shadow: one record per int).  Products
// read the matrix through them; then a kernel renumbers the rows in
// place, each row's start from the row before: iteration i reads
// rowptr(i), which iteration i - 1 writes.
// EXPECT: data-race view=rowptr subkind=iteration-overlap nodes=parallel_for:renumber,parallel_for:renumber lines=38,38
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 20000, per_row = 7;
    Kokkos::View<int *> rowptr("rowptr", n + 1), col("col", n * per_row);
    Kokkos::View<double *> val("val", n * per_row), x("x", n), y("y", n);
    Kokkos::parallel_for("matrix", n, KOKKOS_LAMBDA(const int i) {
      rowptr(i + 1) = (i + 1) * per_row;
      for (int k = 0; k < per_row; ++k) {
        col(i * per_row + k) = (i + k) % n;
        val(i * per_row + k) = 1.0;
      }
      x(i) = 1.0;
    });
    Kokkos::fence();
    for (int s = 0; s < 3; ++s)
      Kokkos::parallel_for("product", n, KOKKOS_LAMBDA(const int i) {
        double t = 0;
        for (int k = rowptr(i); k < rowptr(i + 1); ++k)
          t += val(k) * x(col(k));
        y(i) = t;
      });
    Kokkos::fence();
    Kokkos::parallel_for("renumber", n, KOKKOS_LAMBDA(const int i) {
      // Rows of y(i) entries (at least one).
      const int len = y(i) > 1 ? (int)y(i) : 1;
      rowptr(i + 1) = rowptr(i) + len;
    });
    Kokkos::fence();
    printf("%d\n", rowptr(n));
  }
  Kokkos::finalize();
  return 0;
}
