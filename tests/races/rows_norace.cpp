// Rows (each iteration's own row of a 2D View, kept as a few runs), with
// nothing unordered: rows written, read through a gather, updated in place
// and read again by later kernels; rows of doubles; a kernel that reads
// only half of each row; a loop over the whole array as one; the host's
// writes after a fence; rows of 24 ints, which cross the chunks of shadow.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int K = argc > 100 ? atoi(argv[1]) : 24;
    const int n = 40000;
    Kokkos::View<int **> conn("conn", n, K);
    Kokkos::View<double **> pos("pos", n, 3);
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        conn(i, k) = (i + 7 * k) % n;
      for (int d = 0; d < 3; ++d)
        pos(i, d) = i + d;
      x(i) = i;
    });
    for (int r = 0; r < 3; ++r)
      Kokkos::parallel_for("sum", n, KOKKOS_LAMBDA(const int i) {
        double s = 0;
        for (int k = 0; k < K; ++k)
          s += x(conn(i, k));
        y(i) += s;
      });
    Kokkos::parallel_for("bump", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        conn(i, k) = (conn(i, k) + 1) % n;
      for (int d = 0; d < 3; ++d)
        pos(i, d) *= 0.5;
    });
    Kokkos::parallel_for("half", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K / 2; ++k)
        s += x(conn(i, k));
      for (int d = 0; d < 3; ++d)
        s += pos(i, d);
      y(i) = s;
    });
    Kokkos::View<int *, Kokkos::MemoryUnmanaged> flat(conn.data(), n * K);
    Kokkos::parallel_for("flat", n * K,
                         KOKKOS_LAMBDA(const int e) { flat(e) = e % n; });
    Kokkos::parallel_for("again", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += x(conn(i, k));
      y(i) = s;
    });
    Kokkos::fence();
    for (int i = 0; i < n; i += 3)
      for (int k = 0; k < K; ++k)
        conn(i, k) = (i + k) % n;
    Kokkos::parallel_for("last", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += x(conn(i, k));
      y(i) = s + pos(i, 1);
    });
    Kokkos::fence();
    printf("%g %d\n", y(5), conn(7, 3));
  }
  Kokkos::finalize();
  return 0;
}
