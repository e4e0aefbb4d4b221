// Settled rows: an MDRange kernel fills a matrix (its records in cells);
// after a fence they are settled, and the first kernel that reads the
// matrix row by row makes each chunk's part of it a run of nothing, whose
// rows its strands take (settled rows).  Races they must still show: an
// iteration writes the first element of the next iteration's row, which
// that iteration reads with the rest of its row.  And a second matrix that
// a kernel rewrites with no fence after it keeps that kernel's records
// (not settled) when the next kernel reads its rows: the host's write
// races with both kernels.
// EXPECT: data-race view=A subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift lines=36,39 ops=read,write
// EXPECT: data-race view=B subkind=missing-fence nodes=parallel_for:refill,host lines=43,51 ops=write,write
// EXPECT: data-race view=B subkind=missing-fence nodes=parallel_for:rows,host lines=48,51 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 600, m = 1000;
    Kokkos::View<double **> A("A", n, m), B("B", n, m);
    Kokkos::View<double *> y("y", n);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    Kokkos::parallel_for("init", MD({0, 0}, {n, m}), KOKKOS_LAMBDA(const int j, const int i) {
      A(j, i) = 1.0;
      B(j, i) = 1.0;
    });
    Kokkos::fence();
    double s = 0;
    Kokkos::parallel_reduce("sum", n, KOKKOS_LAMBDA(const int j, double &t) {
      for (int i = 0; i < m; ++i)
        t += A(j, i);
    }, s);
    Kokkos::parallel_for("shift", n - 1, KOKKOS_LAMBDA(const int j) {
      double t = 0;
      for (int i = 0; i < m; ++i)
        t += A(j, i);
      y(j) = t;
      if (j % 100 == 7)
        A(j + 1, 0) = t;
    });
    Kokkos::fence();
    Kokkos::parallel_for("refill", MD({0, 0}, {n, m}), KOKKOS_LAMBDA(const int j, const int i) {
      B(j, i) = 2.0;
    });
    Kokkos::parallel_for("rows", n, KOKKOS_LAMBDA(const int j) {
      double t = 0;
      for (int i = 0; i < m; ++i)
        t += B(j, i);
      y(j) = t;
    });
    B(300, 5) = 3.0;
    Kokkos::fence();
    printf("%g %g\n", s, y(3));
  }
  Kokkos::finalize();
  return 0;
}
