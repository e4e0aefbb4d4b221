// A 2D Jacobi stencil with MDRangePolicy, two Views swapped each step.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = argc > 1 ? atoi(argv[1]) : 512;
    const int steps = argc > 2 ? atoi(argv[2]) : 10;
    Kokkos::View<double **> u("u", n + 2, n + 2), v("v", n + 2, n + 2);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    Kokkos::parallel_for("init", MD({0, 0}, {n + 2, n + 2}),
                         KOKKOS_LAMBDA(const int i, const int j) {
                           u(i, j) = (i == 0 || j == 0) ? 1.0 : 0.0;
                         });
    for (int s = 0; s < steps; ++s) {
      Kokkos::parallel_for("jacobi", MD({1, 1}, {n + 1, n + 1}),
                           KOKKOS_LAMBDA(const int i, const int j) {
                             v(i, j) = 0.25 * (u(i - 1, j) + u(i + 1, j) +
                                               u(i, j - 1) + u(i, j + 1));
                           });
      auto t = u;
      u = v;
      v = t;
    }
    double sum = 0;
    Kokkos::parallel_reduce("check", MD({1, 1}, {n + 1, n + 1}),
                            KOKKOS_LAMBDA(const int i, const int j, double &t) {
                              t += u(i, j);
                            },
                            sum);
    Kokkos::fence();
    printf("stencil n=%d steps=%d sum=%.6e\n", n, steps, sum);
  }
  Kokkos::finalize();
  return 0;
}
