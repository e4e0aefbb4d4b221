// A 3D Jacobi stencil with a rank-3 MDRangePolicy (98^3 points: more than
// a strand id packs, so its ids are hashed per row), two Views swapped each
// step.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = argc > 1 ? atoi(argv[1]) : 96;
    const int steps = argc > 2 ? atoi(argv[2]) : 10;
    Kokkos::View<double ***> u("u", n + 2, n + 2, n + 2), v("v", n + 2, n + 2, n + 2);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;
    Kokkos::parallel_for("init", MD({0, 0, 0}, {n + 2, n + 2, n + 2}),
                         KOKKOS_LAMBDA(const int i, const int j, const int k) {
                           u(i, j, k) = i == 0 ? 1.0 : 0.0;
                           v(i, j, k) = 0.0;
                         });
    for (int s = 0; s < steps; ++s) {
      Kokkos::parallel_for("jacobi3d", MD({1, 1, 1}, {n + 1, n + 1, n + 1}),
                           KOKKOS_LAMBDA(const int i, const int j, const int k) {
                             v(i, j, k) = (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) +
                                           u(i, j + 1, k) + u(i, j, k - 1) + u(i, j, k + 1)) /
                                          6.0;
                           });
      auto t = u;
      u = v;
      v = t;
    }
    double sum = 0;
    Kokkos::parallel_reduce("check", MD({1, 1, 1}, {n + 1, n + 1, n + 1}),
                            KOKKOS_LAMBDA(const int i, const int j, const int k, double &t) {
                              t += u(i, j, k);
                            },
                            sum);
    Kokkos::fence();
    printf("stencil3d n=%d steps=%d sum=%.6e\n", n, steps, sum);
  }
  Kokkos::finalize();
  return 0;
}
