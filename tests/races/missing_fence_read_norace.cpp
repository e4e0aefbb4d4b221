// The same program with the fence: the host reads after the kernel.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *, Kokkos::HostSpace> x("x", 64);
    Kokkos::parallel_for("init", 64,
                         KOKKOS_LAMBDA(const int i) { x(i) = 2.0 * i; });
    Kokkos::DefaultExecutionSpace().fence();
    printf("%g\n", x(10));
  }
  Kokkos::finalize();
  return 0;
}
