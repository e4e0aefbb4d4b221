// Inner loops whose trip count the kernel's iteration reads at run time:
// a(i) accumulated over a functor's member array (the store left in the
// loop, since a may alias the functor), and a matrix-vector product
// y(i) += A(i, j) * x(j).  Each iteration writes its own element only,
// launch after launch on one instance.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

struct Accumulate {
  double w[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  Kokkos::View<double *> a;
  int k;
  Accumulate(Kokkos::View<double *> a_, int k_) : a(a_), k(k_) {}
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    for (int j = 0; j < k; j++)
      a(i) += 1.0 * i * w[j];
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 20000, m = argc > 1 ? 3 : 8;
    Kokkos::View<double *> a("a", n), x("x", m), y("y", n);
    Kokkos::View<double **> A("A", n, m);
    Kokkos::deep_copy(A, 1.0);
    Kokkos::deep_copy(x, 2.0);
    for (int k = 1; k <= 4; k++)
      for (int r = 0; r < 5; r++)
        Kokkos::parallel_for("accumulate", n, Accumulate(a, k));
    for (int r = 0; r < 5; r++)
      Kokkos::parallel_for(
          "matvec", n, KOKKOS_LAMBDA(const int i) {
            for (int j = 0; j < m; j++)
              y(i) += A(i, j) * x(j);
          });
    Kokkos::fence();
    printf("%g %g\n", a(n - 1), y(n - 1));
  }
  Kokkos::finalize();
  return 0;
}
