// The twin of mdrange_inline_race: MDRange iterations whose accesses stay
// in the loop and begin their strands without a call, each reading its own
// element and writing it back under a condition, or (a boundary condition,
// as in a heat equation) writing its own element and reading its
// neighbours in the other array: rank 2 and rank 3, ids packed, rows
// crossing from packed to hashed ids (in tiles, as in the twin), rows hashed
// whole, and a reduction.
// The read checked before the loop and the write left in it must agree on
// each iteration's strand.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using MD2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    using MD3 = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;
    Kokkos::View<double **> p2("p2", 8, 40), c2("c2", 3, 1200), s2("s2", 6, 1100);
    Kokkos::View<double ***> p3("p3", 4, 8, 40), c3("c3", 3, 8, 100), h3("h3", 3, 140, 40);
    Kokkos::View<double **> r2("r2", 8, 1200), u("u", 3, 1200), v("v", 3, 1200);
    Kokkos::View<double ***> r3("r3", 4, 140, 100);
    Kokkos::parallel_for("packed2", MD2({0, 0}, {8, 38}), KOKKOS_LAMBDA(const int i, const int k) {
      const double x = p2(i, k);
      if (k % 7 == 3) p2(i, k) = x + k;
      r2(i, k) = x;
    });
    Kokkos::parallel_for("crossing2", MD2({1, 1020}, {3, 1190}, {1, 4}), KOKKOS_LAMBDA(const int i, const int k) {
      const double x = c2(i, k);
      if (k % 7 == 3) c2(i, k) = x + k;
      r2(i, k) = x;
    });
    Kokkos::parallel_for("packed3", MD3({0, 0, 0}, {4, 8, 38}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
      const double x = p3(i, j, k);
      if (k % 7 == 3) p3(i, j, k) = x + k;
      r3(i, j, k) = x;
    });
    Kokkos::parallel_for("crossing3", MD3({1, 0, 50}, {3, 8, 99}, {1, 1, 14}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
      const double x = c3(i, j, k);
      if (k % 7 == 3) c3(i, j, k) = x + k;
      r3(i, j, k) = x;
    });
    Kokkos::parallel_for("hashed3", MD3({1, 131, 0}, {3, 140, 38}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
      const double x = h3(i, j, k);
      if (k % 7 == 3) h3(i, j, k) = x + k;
      r3(i, j, k) = x;
    });
    for (int step = 0; step < 2; ++step)
      Kokkos::parallel_for("heat", MD2({0, 0}, {3, 1200}), KOKKOS_LAMBDA(const int i, const int k) {
        if (i == 0 || k == 0 || i == 2 || k == 1199) {
          v(i, k) = 0;
          return;
        }
        v(i, k) = u(i, k) + 0.1 * (u(i - 1, k) + u(i + 1, k) + u(i, k - 1) + u(i, k + 1) - 4 * u(i, k));
      });
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum2", MD2({0, 1000}, {6, 1090}),
        KOKKOS_LAMBDA(const int i, const int k, double &s) {
          const double x = s2(i, k);
          if (k % 7 == 3) s2(i, k) = x + 1.0;
          s += x;
        },
        sum);
    printf("%f\n", sum);
  }
  Kokkos::finalize();
  return 0;
}
