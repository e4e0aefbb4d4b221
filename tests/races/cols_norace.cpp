// Columns without a race: iterations of RangePolicy kernels read or write
// their own rows of large LayoutLeft matrices (a word every N words, in
// loops the compiler unrolls into several checks), and host loops fill
// them a row at a time; these accesses are kept as rules of columns.
// The host fills A; "yAx" reads A's rows three times (each kernel's reads
// a fence after the last's); "fill" writes B's rows, "twice" reads each
// row of B twice and then the row before it (written by the kernel
// before); "own" reads each row of C and then writes an element of it;
// "last" reads each row of D but the last and writes an element of it,
// but the last iteration writes one of the last row (read by no
// iteration); "pairs" reads each row of A from two iterations (reads of
// several iterations); the host reads A and B after a fence.  The sums are
// checked.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using matrix = Kokkos::View<double **, Kokkos::LayoutLeft>;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    const int N = 1000, M = 300;
    matrix A("A", N, M), B("B", N, M), C("C", N, M), D("D", N, M);
    Kokkos::View<double *> x("x", M), y("y", 2 * N);
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < M; ++i)
        A(j, i) = 1;
    Kokkos::deep_copy(x, 2.0);
    for (int r = 0; r < 3; ++r) {
      double total = 0;
      Kokkos::parallel_reduce("yAx", N, KOKKOS_LAMBDA(const int j, double &t) {
        double s = 0;
        for (int i = 0; i < M; ++i) s += A(j, i) * x(i);
        t += s;
      }, total);
      if (total != 2.0 * N * M)
        ++bad;
    }
    Kokkos::parallel_for("fill", N, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < M; ++i) B(j, i) = j + i;
    });
    Kokkos::fence();
    Kokkos::parallel_for("twice", N, KOKKOS_LAMBDA(const int j) {
      double s = 0, t = 0, u = 0;
      for (int i = 0; i < M; ++i) s += B(j, i);
      for (int i = 0; i < M; ++i) t += B(j, i) * B(j, i);
      if (j > 0)
        for (int i = 0; i < M; ++i) u += B(j - 1, i);
      y(j) = s + t + u;
    });
    Kokkos::parallel_for("own", N, KOKKOS_LAMBDA(const int j) {
      double s = 0;
      for (int i = 0; i < M; ++i) s += C(j, i);
      C(j, j % M) = s;
    });
    Kokkos::fence();
    Kokkos::parallel_for("last", N - 1, KOKKOS_LAMBDA(const int j) {
      double s = 0;
      for (int i = 0; i < M; ++i) s += D(j, i);
      D(j == N - 2 ? N - 1 : j, j % M) = s + 1;
    });
    Kokkos::fence();
    Kokkos::parallel_for("pairs", 2 * N, KOKKOS_LAMBDA(const int k) {
      double s = 0;
      for (int i = 0; i < M; ++i) s += A(k / 2, i);
      y(k) = s;
    });
    Kokkos::fence();
    for (int j = 0; j < N; ++j) {
      if (y(2 * j) != M || A(j, 7) != 1 || B(j, 7) != j + 7 || C(j, j % M) != 0 ||
          D(j == N - 2 ? N - 1 : j, j % M) != (j < N - 1))
        ++bad;
    }
    printf("bad %d\n", bad);
  }
  Kokkos::finalize();
  return bad != 0;
}
