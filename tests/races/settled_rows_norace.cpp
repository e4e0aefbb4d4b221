// The twin of settled_rows_race: a matrix that an MDRange kernel filled,
// read row by row after a fence (its chunks' parts become runs of nothing,
// whose rows the strands take), each iteration writing the first element
// of its own row; a second matrix rewritten, fenced, read by rows, fenced,
// then written by the host: nothing races.
// EXPECT: no-report
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
      A(j, 0) = t;
    });
    Kokkos::fence();
    Kokkos::parallel_for("refill", MD({0, 0}, {n, m}), KOKKOS_LAMBDA(const int j, const int i) {
      B(j, i) = 2.0;
    });
    Kokkos::fence();
    Kokkos::parallel_for("rows", n, KOKKOS_LAMBDA(const int j) {
      double t = 0;
      for (int i = 0; i < m; ++i)
        t += B(j, i);
      y(j) = t;
    });
    Kokkos::fence();
    B(300, 5) = 3.0;
    Kokkos::fence();
    printf("%g %g\n", s, y(3));
  }
  Kokkos::finalize();
  return 0;
}
