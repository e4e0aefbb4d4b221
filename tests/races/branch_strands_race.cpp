// Kernels whose only per-iteration checks are in branches that few
// iterations take, on values the loop reads (the rest checked before the
// loop).  The strand of such an iteration is begun at its checks: each
// branch's access is still its own iteration's.  A bounce that writes the
// next particle's velocity (read by that particle's iteration), an else
// branch that writes the element before, in a kernel of more iterations
// than strand ids pack (hashed ids), and a row of an MDRange whose last
// column writes the next row's first element.
// EXPECT: data-race view=v subkind=iteration-overlap nodes=parallel_for:bounce,parallel_for:bounce lines=33,35
// EXPECT: data-race view=big subkind=iteration-overlap nodes=parallel_for:big,parallel_for:big lines=40,45
// EXPECT: data-race view=grid subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=50,53
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
    x(500) = 0.9995f;
    big(nb - 7) = 1;
    big(nb - 3) = 2;
    grid(3, m - 1) = 1.0;
    Kokkos::parallel_for(
        "bounce", n, KOKKOS_LAMBDA(const int i) {
          float y = x(i) + v(i);
          if (y >= 1.0f)
            v(i + 1) = -v(i);
          x(i) = y;
        });
    Kokkos::parallel_for(
        "big", Kokkos::RangePolicy<>(1, nb), KOKKOS_LAMBDA(const int i) {
          const int k = big(i);
          out(i) = k;
          if (k == 1)
            out(i) = k + 1;
          else if (k == 2)
            big(i - 1) = 1;
        });
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    Kokkos::parallel_for(
        "rows", MD({0, 0}, {m - 1, m}), KOKKOS_LAMBDA(const int i, const int j) {
          const double g = grid(i, j);
          copy(i, j) = g;
          if (g > 0.5)
            grid(i + 1, 0) = g;
        });
    Kokkos::fence();
    printf("%g %d %g\n", x(3), out(5), copy(1, 0));
  }
  Kokkos::finalize();
  return 0;
}
