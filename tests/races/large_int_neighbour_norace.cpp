// Large Views of 4-byte elements, whose loops the shadow keeps as runs of
// half-words: iterations that read their neighbours' elements, update their
// own, start at an odd index, and a host loop after the fence; neighbours
// share 8-byte words throughout.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 300001;
    Kokkos::View<int *> c("c", n + 1);
    Kokkos::View<float *> f("f", n);
    Kokkos::parallel_for("init", n + 1, KOKKOS_LAMBDA(const int i) { c(i) = i; });
    Kokkos::parallel_for("sum", n,
                         KOKKOS_LAMBDA(const int i) { f(i) = c(i) + c(i + 1); });
    Kokkos::parallel_for("own", n, KOKKOS_LAMBDA(const int i) { c(i) += 1; });
    Kokkos::parallel_for("odd", Kokkos::RangePolicy<>(1, n),
                         KOKKOS_LAMBDA(const int i) { f(i) = 0.5f * f(i); });
    Kokkos::fence();
    Kokkos::View<float *, Kokkos::HostSpace> g("g", n);
    for (int i = 0; i < n; ++i) g(i) = f(i) + c(i);
    double s = 0;
    Kokkos::parallel_reduce("check", n,
                            KOKKOS_LAMBDA(const int i, double &t) { t += g(i); }, s);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
