// Kernels whose every access is checked before their loop, vectorized
// after the instrumentation: updates of arrays and reductions into host
// variables and Views, each kernel of the same instance after the one
// before, the host's accesses after fences.  The results are the program's
// own (checked below: a vectorized reduction sums as the loop does).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4099;
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::View<int *> c("c", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      x(i) = 1.0;
      c(i) = i;
    });
    for (int s = 0; s < 3; ++s)
      Kokkos::parallel_for("axpy", n, KOKKOS_LAMBDA(const int i) { y(i) = 2.0 * x(i) + y(i); });
    double sum = 0;
    Kokkos::parallel_reduce("sum", n, KOKKOS_LAMBDA(const int i, double &t) { t += y(i); }, sum);
    int odd = 0;
    Kokkos::parallel_reduce("odd", n, KOKKOS_LAMBDA(const int i, int &t) { t += c(i) % 2; }, odd);
    Kokkos::View<double, Kokkos::HostSpace> v("v");
    Kokkos::parallel_reduce("sum_view", n, KOKKOS_LAMBDA(const int i, double &t) { t += x(i); }, v);
    Kokkos::fence();
    y(5) = 0.0;
    if (sum != 6.0 * n || odd != n / 2 || v() != 1.0 * n) {
      printf("wrong: %g %d %g\n", sum, odd, v());
      return 1;
    }
    printf("%g %d %g\n", sum, odd, v());
  }
  Kokkos::finalize();
  return 0;
}
