// A 1D Laplacian and a 2D one whose boundary iterations skip the missing
// neighbours (if (i > 0), if (i < n - 1), and in the 2D kernel a condition
// on the outer index): neighbours' elements are only read, the results go
// to other Views.  The conditional reads are checked before the loop for
// the iterations that make them; none reaches outside its View.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000, m = 64;
    Kokkos::View<double *> p("p", n), q("q", n);
    Kokkos::View<double **> u("u", m, m), v("v", m, m);
    Kokkos::deep_copy(p, 1.0);
    Kokkos::deep_copy(u, 1.0);
    for (int step = 0; step < 3; step++) {
      Kokkos::parallel_for("lap1", n, KOKKOS_LAMBDA(const int i) {
        double s = 2 * p(i);
        if (i > 0)
          s -= p(i - 1);
        if (i < n - 1)
          s -= p(i + 1);
        q(i) = s;
      });
      Kokkos::parallel_for("copy1", n, KOKKOS_LAMBDA(const int i) { p(i) = q(i); });
      Kokkos::parallel_for(
          "lap2", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {m, m}),
          KOKKOS_LAMBDA(const int i, const int j) {
            double s = 4 * u(i, j);
            if (i > 0)
              s -= u(i - 1, j);
            if (i < m - 1)
              s -= u(i + 1, j);
            if (j > 0)
              s -= u(i, j - 1);
            if (j < m - 1)
              s -= u(i, j + 1);
            v(i, j) = s;
          });
      Kokkos::parallel_for(
          "copy2", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {m, m}),
          KOKKOS_LAMBDA(const int i, const int j) { u(i, j) = v(i, j); });
    }
    Kokkos::fence();
    printf("%g %g\n", p(0), u(0, 0));
  }
  Kokkos::finalize();
  return 0;
}
