// A large double View kept as a run, a few of its elements written one at
// a time by kernels (the run's exceptions), then a whole-View loop in the
// next kernel and the host's reads after the fence: all ordered.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000;
    Kokkos::View<double *, Kokkos::HostSpace> x("x", n), y("y", n);
    Kokkos::parallel_for("init", n,
                         KOKKOS_LAMBDA(const int i) { x(i) = 2.0 * i; });
    for (int s = 0; s < 3; ++s) {
      Kokkos::parallel_for("mark", n, KOKKOS_LAMBDA(const int i) {
        if (i % (997 + s) == 0)
          x(i) = -1.0;
      });
      Kokkos::parallel_for("copy", n, KOKKOS_LAMBDA(const int i) { y(i) = x(i); });
    }
    Kokkos::fence();
    const double last = x(997 * 300) + y(5);
    printf("%g\n", last);
  }
  Kokkos::finalize();
  return 0;
}
