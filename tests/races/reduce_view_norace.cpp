// The same reduction into a View, fenced before the host reads it.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> x("x", n);
    Kokkos::View<double, Kokkos::HostSpace> sum("sum");
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { x(i) = i; });
    Kokkos::parallel_reduce(
        "total", n,
        KOKKOS_LAMBDA(const int i, double &s) { s += x(i); }, sum);
    Kokkos::fence();
    printf("%g\n", sum());
  }
  Kokkos::finalize();
  return 0;
}
