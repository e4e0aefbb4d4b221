// Stencils over large Views (runs), as users write them: a Jacobi sweep of
// u(i - 1), u(i) and u(i + 1) into v, the two swapped each step with no
// fence between the steps (one instance orders its kernels), a five-point
// sweep, the same over int Views, a kernel reading u(i - 1) again after a
// store (a second read by each strand), and a kernel over all of u after
// them.
// Each element is written by its own iteration and read by its
// neighbours' only in the steps after; the host reads after a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000, steps = 6;
    Kokkos::View<double *> u("u", n), v("v", n);
    Kokkos::View<int *> a("a", n), b("b", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      u(i) = v(i) = i % 7;
      a(i) = b(i) = i % 5;
    });
    for (int s = 0; s < steps; ++s) {
      Kokkos::parallel_for("jacobi", Kokkos::RangePolicy<>(1, n - 1),
                           KOKKOS_LAMBDA(const int i) { v(i) = (u(i - 1) + u(i) + u(i + 1)) / 3; });
      Kokkos::parallel_for("ints", Kokkos::RangePolicy<>(1, n - 1),
                           KOKKOS_LAMBDA(const int i) { b(i) = a(i - 1) + a(i + 1) - a(i); });
      auto t = u;
      u = v;
      v = t;
      auto c = a;
      a = b;
      b = c;
    }
    Kokkos::parallel_for("again", Kokkos::RangePolicy<>(1, n - 1), KOKKOS_LAMBDA(const int i) {
      const double x = u(i - 1) + u(i + 1);
      v(i) = x;
      v(i) += u(i - 1);
    });
    Kokkos::parallel_for("five", Kokkos::RangePolicy<>(2, n - 2), KOKKOS_LAMBDA(const int i) {
      v(i) = u(i - 2) + u(i - 1) + u(i) + u(i + 1) + u(i + 2);
    });
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum", n, KOKKOS_LAMBDA(const int i, double &s) { s += u(i) + a(i); }, sum);
    Kokkos::fence();
    printf("%g %g %d\n", sum, v(n / 2), a(n / 3));
  }
  Kokkos::finalize();
  return 0;
}
