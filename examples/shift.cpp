// Shift every element left by one, in place.  On Serial the iterations run
// in order and the result is right; on OpenMP, Threads or CUDA iteration i
// may read a(i + 1) after iteration i + 1 wrote it.  kkrace reports it on
// Serial.
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<double *> a("a", n + 1);
    Kokkos::parallel_for("init", n + 1, KOKKOS_LAMBDA(const int i) { a(i) = i; });
    Kokkos::parallel_for("shift", n,
                         KOKKOS_LAMBDA(const int i) { a(i) = a(i + 1); });
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum", n, KOKKOS_LAMBDA(const int i, double &s) { s += a(i); }, sum);
    printf("sum = %g\n", sum);
  }
  Kokkos::finalize();
  return 0;
}
