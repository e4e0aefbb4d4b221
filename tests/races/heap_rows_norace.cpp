// The twin of heap_rows_race: rows of matrices in malloc'ed and
// realloc'ed memory, kept as runs.  Each iteration reads its own row and
// writes its first element, and the host reads rows after a fence: nothing
// races.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 600, m = 1000;
    double *A = static_cast<double *>(malloc(sizeof(double) * n * m));
    double *y = static_cast<double *>(calloc(n, sizeof(double)));
    double *B = static_cast<double *>(malloc(sizeof(double) * 100 * m));
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < m; ++i)
        A[j * m + i] = 1.0;
    });
    Kokkos::fence();
    Kokkos::parallel_for("shift", n - 1, KOKKOS_LAMBDA(const int j) {
      double t = 0;
      for (int i = 0; i < m; ++i)
        t += A[j * m + i];
      y[j] = t;
      A[j * m] = t;
    });
    Kokkos::fence();
    Kokkos::parallel_for("refill", n, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < m; ++i)
        A[j * m + i] = j + 0.5 * i;
    });
    Kokkos::fence();
    double s = 0;
    for (int i = 0; i < m; ++i)
      s += A[300 * m + i];
    Kokkos::fence();
    free(A);
    B = static_cast<double *>(realloc(B, sizeof(double) * n * m));
    Kokkos::parallel_for("grow", n, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < m; ++i)
        B[j * m + i] = 2.0 * j;
    });
    Kokkos::fence();
    for (int i = 0; i < m; ++i)
      s += B[400 * m + i];
    Kokkos::fence();
    printf("%g %g\n", s, y[3]);
    free(B);
    free(y);
  }
  Kokkos::finalize();
  return 0;
}
