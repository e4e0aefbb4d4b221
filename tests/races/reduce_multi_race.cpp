// Several results from one parallel_reduce (Kokkos 4), whose functor also
// overwrites an element of its input that another iteration reads.
// REQUIRES: kokkos4
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_reduce:multi,parallel_reduce:multi lines=21,22
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
          const double v = x(i);
          if (i == n - 1) x(0) = 0;
          s += v;
          if (v > m) m = v;
          if (v > 0) c += 1;
        },
        sum, Kokkos::Max<double>(mx), positive);
    printf("%g %g %d\n", sum, mx, positive);
  }
  Kokkos::finalize();
  return 0;
}
