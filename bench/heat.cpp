// Heat diffusion on an N x N grid kept as one flat View, each step a
// RangePolicy kernel over the interior rows reading u(i - N), u(i - 1),
// u(i + 1) and u(i + N) into v, the two swapped with no fence between
// steps: the stencil as most Kokkos codes first write it.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int N = argc > 1 ? atoi(argv[1]) : 1024;
    const int steps = argc > 2 ? atoi(argv[2]) : 20;
    const int n = N * N;
    Kokkos::View<double *> u("u", n), v("v", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      u(i) = i < N ? 1.0 : 0.0;
      v(i) = u(i);
    });
    for (int s = 0; s < steps; ++s) {
      Kokkos::parallel_for("heat", Kokkos::RangePolicy<>(N, n - N), KOKKOS_LAMBDA(const int i) {
        v(i) = 0.25 * (u(i - N) + u(i - 1) + u(i + 1) + u(i + N));
      });
      auto t = u;
      u = v;
      v = t;
    }
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum", n, KOKKOS_LAMBDA(const int i, double &t) { t += u(i); }, sum);
    Kokkos::fence();
    printf("heat N=%d steps=%d sum=%.6e\n", N, steps, sum);
  }
  Kokkos::finalize();
  return 0;
}
