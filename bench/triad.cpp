// Bandwidth-bound: STREAM triad a = b + s * c, repeated.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const long n = argc > 1 ? atol(argv[1]) : 2000000;
    const int reps = argc > 2 ? atoi(argv[2]) : 10;
    Kokkos::View<double *> a("a", n), b("b", n), c("c", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const long i) {
      b(i) = 1.0 + i % 7;
      c(i) = 2.0 - i % 5;
    });
    const double s = 3.0;
    for (int r = 0; r < reps; ++r)
      Kokkos::parallel_for("triad", n,
                           KOKKOS_LAMBDA(const long i) { a(i) = b(i) + s * c(i); });
    double sum = 0;
    Kokkos::parallel_reduce("check", n,
                            KOKKOS_LAMBDA(const long i, double &t) { t += a(i); }, sum);
    Kokkos::fence();
    printf("triad n=%ld reps=%d sum=%.6e\n", n, reps, sum);
  }
  Kokkos::finalize();
  return 0;
}
