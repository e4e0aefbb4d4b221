// A reduction into a host scalar fences: the host may use the result.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> x("x", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { x(i) = i; });
    double max = 0, sum = 0;
    Kokkos::parallel_reduce(
        "max", n,
        KOKKOS_LAMBDA(const int i, double &m) { m = x(i) > m ? x(i) : m; },
        Kokkos::Max<double>(max));
    Kokkos::parallel_reduce(
        "sum", n, KOKKOS_LAMBDA(const int i, double &s) { s += x(i) / max; },
        sum);
    x(0) = sum;
    printf("%g %g\n", max, sum);
  }
  Kokkos::finalize();
  return 0;
}
