// After many fenced dispatches, the work items far in the past are retired
// (ordered before everything to come, their records need nothing more):
// the host and later kernels touch what they wrote without a report, and
// the late kernel is fenced before the host reads its output.
// EXPECT: no-report
// KKRACE-OPTIONS: verbosity=1
// EXPECT-TEXT: kkrace: nodes retired: the first
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double *, Kokkos::HostSpace> x("x", n), y("y", n), s("s", 16);
    Kokkos::parallel_for("old", n, KOKKOS_LAMBDA(const int i) { x(i) = i; });
    Kokkos::fence();
    // More than twice the nodes between two retirements.
    for (int r = 0; r < 80000; ++r) {
      Kokkos::parallel_for("step", 16, KOKKOS_LAMBDA(const int i) { s(i) += x(i); });
      if (r % 16 == 0)
        Kokkos::fence();
    }
    Kokkos::fence();
    x(5) = 1.0;
    printf("%g\n", s(3));
    Kokkos::parallel_for("late", n,
                         KOKKOS_LAMBDA(const int i) { y(i) = x(i) + s(i % 16); });
    Kokkos::fence();
    printf("%g\n", y(3));
  }
  Kokkos::finalize();
  return 0;
}
