// The twin of inner_count_norace: each iteration's inner loop (its trip
// count read at run time) also stores into its neighbour's element of b,
// which the neighbour's iteration stores into in the same loop: two
// iterations of one parallel_for, in each launch.
// EXPECT: data-race view=b subkind=iteration-overlap nodes=parallel_for:accumulate,parallel_for:accumulate lines=20,21
#include <Kokkos_Core.hpp>
#include <cstdio>

struct Accumulate {
  double w[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  Kokkos::View<double *> a, b;
  int k;
  Accumulate(Kokkos::View<double *> a_, Kokkos::View<double *> b_, int k_)
      : a(a_), b(b_), k(k_) {}
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    for (int j = 0; j < k; j++)
      a(i) += 1.0 * i * w[j];
    const int next = i + 1 < b.extent_int(0) ? i + 1 : i;
    for (int j = 0; j < k; j++) {
      b(i) = w[j];
      b(next) = 2 * w[j];
    }
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 20000;
    Kokkos::View<double *> a("a", n), b("b", n);
    for (int k = 1; k <= 4; k++)
      for (int r = 0; r < 5; r++)
        Kokkos::parallel_for("accumulate", n, Accumulate(a, b, k));
    Kokkos::fence();
    printf("%g %g\n", a(n - 1), b(n - 1));
  }
  Kokkos::finalize();
  return 0;
}
