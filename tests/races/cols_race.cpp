// Columns: iteration j of a RangePolicy kernel reads (or writes) its row
// j of a LayoutLeft matrix, a word every N words (the compiler unrolls the
// loop into several checks), and a host loop fills one row after another.
// The matrices are large (1000 x 300 doubles), so that these accesses are
// kept as a rule of columns; the races below are each between an access
// and a record of that rule.
// "reads": iteration j reads row j of A, then iteration J (unknown to the
// compiler) writes element 5 of row J - 1 (read by iteration J - 1);
// "writes": iteration j writes row j of B, then iteration J reads element
// 7 of row J - 1 (written by iteration J - 1);
// the host fills H a row at a time, "sum" reads H's rows, then the host
// writes H(J, 3) without a fence (read by iteration J) and reads B(J, 9)
// (written by "writes", fenced before) and C(J, 2) ("fill" wrote it: no
// fence).
// EXPECT: data-race view=A subkind=iteration-overlap nodes=parallel_for:reads,parallel_for:reads lines=36,34 ops=write,read
// EXPECT: data-race view=B subkind=iteration-overlap nodes=parallel_for:writes,parallel_for:writes lines=42,40 ops=read,write
// EXPECT: data-race view=H subkind=missing-fence nodes=host,parallel_for:sum lines=56,50 ops=write,read
// EXPECT: data-race view=C subkind=missing-fence nodes=host,parallel_for:fill lines=57,54 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

using matrix = Kokkos::View<double **, Kokkos::LayoutLeft>;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int N = 1000, M = 300;
    const int J = argc > 100 ? atoi(argv[1]) : 600;
    matrix A("A", N, M), B("B", N, M), C("C", N, M), H("H", N, M);
    Kokkos::View<double *> out("out", N);
    Kokkos::parallel_for("reads", N, KOKKOS_LAMBDA(const int j) {
      double s = 0;
      for (int i = 0; i < M; ++i) s += A(j, i);
      if (j == J)
        A(j - 1, 5) = s;
    });
    Kokkos::fence();
    Kokkos::parallel_for("writes", N, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < M; ++i) B(j, i) = i + j;
      if (j == J)
        out(j) = B(j - 1, 7);
    });
    Kokkos::fence();
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < M; ++i)
        H(j, i) = i - j;
    Kokkos::parallel_for("sum", N, KOKKOS_LAMBDA(const int j) {
      double s = 0;
      for (int i = 0; i < M; ++i) s += H(j, i);
      out(j) = s;
    });
    Kokkos::parallel_for("fill", N, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < M; ++i) C(j, i) = 2 * j;
    });
    H(J, 3) = -1;
    const double b = B(J, 9), c = C(J, 2);
    Kokkos::fence();
    printf("%g %g %g\n", out(3), b, c);
  }
  Kokkos::finalize();
  return 0;
}
