// A large View that the host fills in an unrolled, vectorized loop (its
// stores interleave: each writes every fourth group of elements), that a
// kernel then updates, and that the host fills again after a fence.  The
// first fill leaves the View's shadow in its compact form; the copy, the
// kernel and the second fill are all ordered through it.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 20;
    Kokkos::View<float *, Kokkos::HostSpace> x("x", n), y("y", n);
    for (int i = 0; i < n; ++i) x(i) = (float)i;
    Kokkos::deep_copy(y, x);
    Kokkos::parallel_for("scale", n,
                         KOKKOS_LAMBDA(const int i) { x(i) *= 2.0f; });
    Kokkos::fence();
    for (int r = 0; r < 2; ++r)
      for (int i = 0; i < n; ++i) x(i) = (float)(i + r);
    Kokkos::parallel_for("scale", n,
                         KOKKOS_LAMBDA(const int i) { y(i) += x(i); });
    Kokkos::fence();
    printf("%g %g\n", x(n - 1), y(n - 1));
  }
  Kokkos::finalize();
  return 0;
}
