// Long rows: the host fills a matrix a row at a time in a loop that the
// compiler vectorizes and unrolls, then kernels read and write each
// iteration's own row of 1,000 doubles (y^T A x, the Kokkos tutorials'
// first exercises), a fence, and host reads.  The rows of both, and a
// host loop's rows one after the other, are checked as rows of runs.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 600, m = 1000;
    Kokkos::View<double **> A("A", n, m);
    Kokkos::View<double *> x("x", m), y("y", n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        A(j, i) = 1.0 + (i & 3);
    for (int i = 0; i < m; ++i)
      x(i) = 0.5;
    double total = 0;
    for (int r = 0; r < 3; ++r) {
      double result = 0;
      Kokkos::parallel_reduce("yAx", n, KOKKOS_LAMBDA(const int j, double &s) {
        double t = 0;
        for (int i = 0; i < m; ++i)
          t += A(j, i) * x(i);
        s += t;
      }, result);
      total += result;
      Kokkos::parallel_for("scale", n, KOKKOS_LAMBDA(const int j) {
        for (int i = 0; i < m; ++i)
          A(j, i) = 0.5 * A(j, i) + 1.0;
        y(j) = j;
      });
    }
    Kokkos::fence();
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        A(j, i) += y(j);
    printf("%g %g\n", total, A(5, 7));
  }
  Kokkos::finalize();
  return 0;
}
