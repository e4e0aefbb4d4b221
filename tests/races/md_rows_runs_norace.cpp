// MDRange kernels over Views larger than an MDRange item's strand ids pack
// (the twin of md_rows_runs_race), with nothing unordered: a fill of rows
// beyond the packed ones, kept as one rule of runs; kernels whose
// iterations read and write their own element (some of them read first
// as a single access, which the row's check of the writes has decided
// before: the strands of the two must be one; also in rows of 600, which
// a kernel's first rows lay its ids out by, and from a negative first
// index), read the elements of the
// rows above and below and write another View's, or rewrite a fill after a
// fence; a RangePolicy kernel reading each row of a filled View as its
// iteration's own; a 3D fill and a kernel over its planes beyond the packed
// ones; an array of int filled and updated in place; and the host reading
// after a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 2048, m = 1024;
    using MD2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    using MD3 = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;
    Kokkos::View<double **> A("A", n, m), B("B", n, m), C("C", n, m);
    Kokkos::View<int **> H("H", n, m);
    Kokkos::View<double **> N("N", 2000, 600), N2("N2", 2000, 600);
    Kokkos::View<double *> rows("rows", n);
    Kokkos::View<double ***> D("D", 200, 64, 64), E("E", 200, 64, 64);
    Kokkos::parallel_for("fill", MD2({0, 0}, {n, m}), KOKKOS_LAMBDA(const int i, const int j) {
      A(i, j) = i + 0.5 * j;
      H(i, j) = i - j;
    });
    Kokkos::parallel_for("own", MD2({0, 0}, {n, m}),
                         KOKKOS_LAMBDA(const int i, const int j) { A(i, j) = 2 * A(i, j) + 1; });
    Kokkos::parallel_for("own_cond", MD2({0, 0}, {n, m}), KOKKOS_LAMBDA(const int i, const int j) {
      if ((i + j) % 97 == 0)
        C(i, j) = 2 * A(i, j);
      A(i, j) = 0.5 * A(i, j);
    });
    Kokkos::parallel_for("own_cond_far", MD2({1100, 0}, {n, m}), KOKKOS_LAMBDA(const int i, const int j) {
      if ((i + j) % 89 == 0)
        C(i, j) = 3 * A(i, j);
      A(i, j) = 0.25 * A(i, j);
    });
    using MDL = Kokkos::MDRangePolicy<Kokkos::Rank<2>, Kokkos::IndexType<long>>;
    Kokkos::parallel_for("negative", MDL({-4L, 0L}, {60L, long(m)}), KOKKOS_LAMBDA(const long i, const long j) {
      if ((i + j) % 79 == 0)
        C(i + 4, j) = 5 * A(i + 4, j);
      A(i + 4, j) = 0.75 * A(i + 4, j);
    });
    Kokkos::parallel_for("narrow", MD2({0, 0}, {2000, 600}), KOKKOS_LAMBDA(const int i, const int j) {
      if ((i + j) % 83 == 0)
        N2(i, j) = 2 * N(i, j);
      N(i, j) = i - 0.5 * j;
    });
    Kokkos::parallel_for("ints", MD2({0, 0}, {n, m}),
                         KOKKOS_LAMBDA(const int i, const int j) { H(i, j) += 3; });
    Kokkos::parallel_for("neighbours", MD2({1, 1}, {n - 1, m - 1}), KOKKOS_LAMBDA(const int i, const int j) {
      B(i, j) = A(i - 1, j) + A(i + 1, j) + A(i, j - 1) + A(i, j + 1) + H(i, j);
    });
    Kokkos::fence();
    Kokkos::parallel_for("rows", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int j = 0; j < m; ++j)
        s += A(i, j);
      rows(i) = s;
    });
    Kokkos::fence();
    Kokkos::parallel_for("refill", MD2({0, 0}, {n, m}),
                         KOKKOS_LAMBDA(const int i, const int j) { A(i, j) = i * 0.25 + j; });
    Kokkos::parallel_for("fill3", MD3({0, 0, 0}, {200, 64, 64}),
                         KOKKOS_LAMBDA(const int i, const int j, const int k) { D(i, j, k) = i + j + k; });
    Kokkos::parallel_for("planes", MD3({1, 0, 0}, {200, 64, 64}), KOKKOS_LAMBDA(const int i, const int j, const int k) {
      E(i, j, k) = D(i, j, k) + D(i - 1, j, k);
    });
    Kokkos::fence();
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += rows(i) + B(i, 7) + A(i, 9) + H(i, 3) + C(i, 5) + N2(i % 2000, 3);
    printf("%g %g\n", s, E(150, 3, 3));
  }
  Kokkos::finalize();
  return 0;
}
