// MDRange kernels that run again over other extents: each item lays its
// ids out by the extents its kernel had before, which may be smaller
// (rows hashed beyond), larger, or of another shape.  Each sweep reads
// one View and writes another, by iterations that each own their element,
// and a reduction checks the sums: nothing races, whatever the layout.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

using MD3 = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;
using MD2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;

static void sweep3(Kokkos::View<double ***> u, Kokkos::View<double ***> v, int n0, int n1,
                   int n2) {
  Kokkos::parallel_for("sweep3", MD3({0, 0, 1}, {n0, n1, n2 - 1}),
                       KOKKOS_LAMBDA(const int i, const int j, const int k) {
                         v(i, j, k) = u(i, j, k - 1) + u(i, j, k) + u(i, j, k + 1);
                       });
  double sum = 0;
  Kokkos::parallel_reduce("sum3", MD3({0, 0, 1}, {n0, n1, n2 - 1}),
                          KOKKOS_LAMBDA(const int i, const int j, const int k, double &s) {
                            s += v(i, j, k);
                          },
                          sum);
  const double want = 3.0 * n0 * n1 * (n2 - 2);
  if (sum != want) {
    printf("sweep3 %d %d %d: %g, not %g\n", n0, n1, n2, sum, want);
    abort();
  }
}

static void sweep2(Kokkos::View<double **> u, Kokkos::View<double **> v, int n0, int n1) {
  Kokkos::parallel_for("sweep2", MD2({0, 1}, {n0, n1 - 1}),
                       KOKKOS_LAMBDA(const int i, const int j) {
                         v(i, j) = u(i, j - 1) + u(i, j + 1);
                       });
  Kokkos::parallel_for("back2", MD2({0, 1}, {n0, n1 - 1}),
                       KOKKOS_LAMBDA(const int i, const int j) { u(i, j) = v(i, j) - 1.0; });
  double sum = 0;
  Kokkos::parallel_reduce("sum2", MD2({0, 1}, {n0, n1 - 1}),
                          KOKKOS_LAMBDA(const int i, const int j, double &s) { s += u(i, j); },
                          sum);
  if (sum != 1.0 * n0 * (n1 - 2)) {
    printf("sweep2 %d %d: %g\n", n0, n1, sum);
    abort();
  }
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double ***> u("u", 200, 8, 140), v("v", 200, 8, 140);
    Kokkos::deep_copy(u, 1.0);
    // Rows of 10, then of 100 (hashed beyond 10), 50, 140 (beyond 64 the
    // first time), and 200 planes of 8 x 20.
    const int shapes[][3] = {{3, 4, 10}, {3, 4, 100}, {3, 4, 50}, {2, 8, 140}, {200, 8, 20},
                             {3, 4, 100}};
    for (const auto &s : shapes)
      sweep3(u, v, s[0], s[1], s[2]);
    Kokkos::View<double **> a("a", 700, 3000), b("b", 700, 3000);
    Kokkos::deep_copy(a, 1.0);
    // Rows of 1100 (hashed beyond 1024 the first time), 3000, then 700 of
    // 1500 (beyond what a layout for rows of 3000 packs), 5 of 40.
    const int shapes2[][2] = {{2, 1100}, {2, 3000}, {700, 1500}, {5, 40}, {2, 3000}};
    for (const auto &s : shapes2)
      sweep2(a, b, s[0], s[1]);
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
