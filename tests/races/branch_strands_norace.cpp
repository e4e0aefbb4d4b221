// Kernels whose only per-iteration checks are in branches that few
// iterations take, on values the loop reads (the rest checked before the
// loop): each branch touches its own iteration's elements only, which the
// checks before the loop also touched.  Its strand, begun at the branch's
// checks, is that iteration's: nothing races.  A bounce that flips the
// particle's own velocity, two branches of a kernel of more iterations
// than strand ids pack (hashed ids), and an MDRange row whose flagged
// points rewrite their own element.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<float *> x("x", n), v("v", n);
    const int nb = (1 << 20) + 4096;
    Kokkos::View<int *> big("big", nb + 1), out("out", nb + 1);
    const int m = 32;
    Kokkos::View<double **> grid("grid", m, m), copy("copy", m, m);
    Kokkos::deep_copy(v, 0.001f);
    Kokkos::deep_copy(x, 0.5f);
    Kokkos::fence();
    for (int i = 0; i < n; i += 7)
      x(i) = 0.9995f;
    for (int i = 1; i < nb; i += 1000)
      big(i) = 1 + i % 2;
    grid(3, m - 1) = 1.0;
    grid(7, 0) = 1.0;
    for (int s = 0; s < 2; s++) {
      Kokkos::parallel_for(
          "bounce", n, KOKKOS_LAMBDA(const int i) {
            float y = x(i) + v(i);
            if (y >= 1.0f) {
              v(i) = -v(i);
              y = x(i);
            }
            x(i) = y;
          });
      Kokkos::parallel_for(
          "big", Kokkos::RangePolicy<>(1, nb), KOKKOS_LAMBDA(const int i) {
            const int k = big(i);
            out(i) = k;
            if (k == 1)
              out(i) = out(i) + 1;
            else if (k == 2)
              big(i) = 2;
          });
      using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
      Kokkos::parallel_for(
          "rows", MD({0, 0}, {m, m}), KOKKOS_LAMBDA(const int i, const int j) {
            const double g = grid(i, j);
            copy(i, j) = g;
            if (g > 0.5)
              grid(i, j) = copy(i, j) + 1.0;
          });
    }
    Kokkos::fence();
    printf("%g %d %g\n", x(3), out(5), copy(1, 0));
  }
  Kokkos::finalize();
  return 0;
}
