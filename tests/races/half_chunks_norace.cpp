// Float and int Views that kernels touch element by element, until their
// shadow keeps half-cells only, then read by reductions, copied, read by
// the host after a fence, updated in place, freed, and the memory reused
// for doubles: no report.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 512;
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    double total = 0;
    for (int round = 0; round < 2; ++round) {
      Kokkos::View<float **> u("u", n, n + 1), v("v", n, n + 1);
      Kokkos::View<int *> k("k", n * (n + 1));
      for (int s = 0; s < 3; ++s) {
        Kokkos::parallel_for("step", MD({1, 1}, {n - 1, n}), KOKKOS_LAMBDA(const int i, const int j) {
          v(i, j) = 0.25f * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1)) + 1.0f;
          k(i * (n + 1) + j) += j % 3 == 0 ? 1 : 2;
        });
        Kokkos::parallel_for("back", MD({0, 0}, {n, n + 1}),
                             KOKKOS_LAMBDA(const int i, const int j) { u(i, j) += v(i, j); });
      }
      double s = 0;
      Kokkos::parallel_reduce("sum", MD({0, 0}, {n, n + 1}),
                              KOKKOS_LAMBDA(const int i, const int j, double &t) { t += u(i, j); }, s);
      Kokkos::deep_copy(v, u);
      auto h = Kokkos::create_mirror_view(v);
      Kokkos::deep_copy(h, v);
      for (int j = 0; j < n; ++j) s += h(7, j) + k(7 * (n + 1) + j);
      Kokkos::parallel_for("rows", n, KOKKOS_LAMBDA(const int i) {
        for (int j = 0; j <= n; ++j) u(i, j) *= 0.5f;
      });
      Kokkos::fence();
      total += s;
    }
    Kokkos::View<double **> d("d", n, n);
    Kokkos::parallel_for("doubles", MD({0, 0}, {n, n}),
                         KOKKOS_LAMBDA(const int i, const int j) { d(i, j) = i + j; });
    double s = 0;
    Kokkos::parallel_reduce("dsum", MD({0, 0}, {n, n}),
                            KOKKOS_LAMBDA(const int i, const int j, double &t) { t += d(i, j); }, s);
    printf("%g %g\n", total, s);
  }
  Kokkos::finalize();
  return 0;
}
