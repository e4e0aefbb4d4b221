// The fence before the host loop orders the kernel's reads before the host's
// writes.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 256;
    Kokkos::View<double *> in("in", n), out("out", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { in(i) = i; });
    Kokkos::fence();
    for (int step = 0; step < 2; ++step) {
      Kokkos::parallel_for(
          "scale", n,
          KOKKOS_LAMBDA(const int i) { out(i) = 2 * in(i); });
      Kokkos::fence();
      for (int i = 0; i < n; ++i) in(i) = out(i);
    }
  }
  Kokkos::finalize();
  return 0;
}
