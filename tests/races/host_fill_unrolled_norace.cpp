// The twin of host_fill_unrolled_race: the host loop that fills the View
// (unrolled and vectorized) comes after a fence that orders the kernel
// reading it.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

__attribute__((noinline)) void fill(double *p, int n, double v) {
  for (int i = 0; i < n; ++i)
    p[i] = v;
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100003; // (and a remainder loop)
    Kokkos::View<double *> a("a", n), b("b", n);
    Kokkos::parallel_for(
        "reader", n, KOKKOS_LAMBDA(const int i) {
          b(i) = a(i) + 1.0;
        });
    Kokkos::fence();
    fill(a.data(), n, 2.0);
    printf("%g\n", b(n - 1));
  }
  Kokkos::finalize();
  return 0;
}
