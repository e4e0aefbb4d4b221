// Several results from one parallel_reduce (Kokkos 4): a sum, a maximum and
// a count, each iteration updating its own three values.
// REQUIRES: kokkos4
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> x("x", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) { x(i) = (i * 37) % 101 - 50.0; });
    Kokkos::fence();
    double sum = 0, mx = 0;
    int positive = 0;
    Kokkos::parallel_reduce(
        "multi", n,
        KOKKOS_LAMBDA(const int i, double &s, double &m, int &c) {
          s += x(i);
          if (x(i) > m) m = x(i);
          if (x(i) > 0) c += 1;
        },
        sum, Kokkos::Max<double>(mx), positive);
    printf("%g %g %d\n", sum, mx, positive);
  }
  Kokkos::finalize();
  return 0;
}
