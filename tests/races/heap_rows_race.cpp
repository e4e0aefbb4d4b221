// Rows of matrices in malloc'ed and realloc'ed memory, not Views, kept as
// runs as a View's rows are (the block's bounds from malloc): races they
// must still show.  An iteration writes the first element of the next
// iteration's row, which that iteration reads with the rest of its row;
// the host reads a row that an unfenced kernel wrote; and after the
// matrix is freed, a block realloc'ed to a new size gets its rows from a
// kernel that the host does not fence either.
// EXPECT: data-race view=- subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift lines=30,33 ops=read,write
// EXPECT: data-race view=- subkind=missing-fence nodes=parallel_for:refill,host lines=38,42 ops=write,read
// EXPECT: data-race view=- subkind=missing-fence nodes=parallel_for:grow,host lines=48,51 ops=write,read
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
      if (j % 100 == 7)
        A[(j + 1) * m] = t;
    });
    Kokkos::fence();
    Kokkos::parallel_for("refill", n, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < m; ++i)
        A[j * m + i] = j + 0.5 * i;
    });
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
