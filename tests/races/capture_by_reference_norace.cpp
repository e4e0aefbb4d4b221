// The same sum as a parallel_reduce into the host variable: the reduction
// value is private to each iteration and the reduction fences.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> x("x", 100);
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum", 100, KOKKOS_LAMBDA(const int i, double &s) { s += x(i); }, sum);
    printf("%g\n", sum);
  }
  Kokkos::finalize();
  return 0;
}
