// Reading the neighbour from another View, written by an earlier dispatch on
// the same instance: no race.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<double *> a("a", n + 1), b("b", n + 1);
    Kokkos::parallel_for("fill", n + 1, KOKKOS_LAMBDA(const int i) { b(i) = i; });
    Kokkos::parallel_for("shift", n,
                         KOKKOS_LAMBDA(const int i) { a(i) = b(i + 1); });
    Kokkos::fence();
    double s = 0;
    for (int i = 0; i < n; ++i) s += a(i);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
