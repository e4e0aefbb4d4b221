// The matrix-free product of a conjugate gradient on a 1D Laplacian, its
// boundary rows in branches (`if (i > 0)`, `if (i < n - 1)`): each
// iteration reads its neighbours' elements of p and writes its own of Ap,
// five steps with no fence between them, then the updates of p from Ap.
// The optimizer gives the address of p(i - 1) under its guard as the 31
// bits of a non-negative int, widened with zeros; checked before the
// loop, each read is its iteration's own.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = argc > 1 ? atoi(argv[1]) : 300000, steps = 5;
    Kokkos::View<double *> p("p", n), Ap("Ap", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { p(i) = i % 3; });
    for (int s = 0; s < steps; ++s) {
      Kokkos::parallel_for("matvec", n, KOKKOS_LAMBDA(const int i) {
        double v = 2.0 * p(i);
        if (i > 0)
          v -= p(i - 1);
        if (i < n - 1)
          v -= p(i + 1);
        Ap(i) = v;
      });
      Kokkos::parallel_for("update", n, KOKKOS_LAMBDA(const int i) { p(i) = 0.5 * (p(i) + Ap(i)); });
    }
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum", n, KOKKOS_LAMBDA(const int i, double &t) { t += p(i); }, sum);
    Kokkos::fence();
    printf("%g\n", sum);
  }
  Kokkos::finalize();
  return 0;
}
