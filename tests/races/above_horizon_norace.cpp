// A kernel that nothing fences until the end stops the host's horizon (the
// first node not ordered before the host's access), so that every later
// node lies above it: the host's own earlier segments, and the kernels
// submitted after.  Program order still orders the host's segments, and
// submission order the kernels: each host loop over h meets the records of
// the loop before it, in an earlier segment above the horizon, and each
// "next" kernel those of the one before.  Nothing races.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096;
    Kokkos::View<double *, Kokkos::HostSpace> a("a", n), b("b", n), h("h", n);
    Kokkos::parallel_for("slow", n, KOKKOS_LAMBDA(const int i) { a(i) = i; });
    double s = 0;
    for (int r = 0; r < 6; ++r) {
      for (int i = 0; i < n; ++i)
        h(i) = h(i) + r;
      for (int i = 0; i < n; ++i)
        s += h(i);
      Kokkos::parallel_for("next", n, KOKKOS_LAMBDA(const int i) {
        b(i) = b(i) + i + r;
      });
    }
    Kokkos::fence();
    printf("%g %g %g %g\n", s, a(5), b(5), h(5));
  }
  Kokkos::finalize();
  return 0;
}
