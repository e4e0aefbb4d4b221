// A large float View and an int View kept as runs, then touched by
// conditional single accesses of each iteration's own elements (their
// shadow becomes half-cells), reduced, and read by the host after a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 300001;
    Kokkos::View<float *> f("f", n);
    Kokkos::View<int *> c("c", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { f(i) = i % 7; c(i) = i; });
    for (int s = 0; s < 4; ++s) {
      Kokkos::parallel_for("bounce", n, KOKKOS_LAMBDA(const int i) {
        float y = f(i) + 1.0f;
        if (y > 6.0f) {
          c(i) = -c(i);
          y = f(i) - 6.0f;
        }
        f(i) = y;
      });
      int neg = 0;
      Kokkos::parallel_reduce("neg", n, KOKKOS_LAMBDA(const int i, int &t) { t += c(i) < 0; }, neg);
      Kokkos::parallel_for("shift", n - 1, KOKKOS_LAMBDA(const int i) { f(i) += 0.5f * c(i + 1); });
    }
    Kokkos::fence();
    double s = 0;
    for (int i = 0; i < n; ++i) s += f(i) + c(i);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
