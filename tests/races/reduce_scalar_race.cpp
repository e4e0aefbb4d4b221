// The reduction into a scalar is fine, but its functor also writes a View
// element that other iterations read.
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_reduce:sum,parallel_reduce:sum lines=16,17
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> x("x", n);
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum", n,
        KOKKOS_LAMBDA(const int i, double &s) {
          s += x(i);
          if (i == 0) x(n - 1) = 0;
        },
        sum);
    printf("%g\n", sum);
  }
  Kokkos::finalize();
  return 0;
}
