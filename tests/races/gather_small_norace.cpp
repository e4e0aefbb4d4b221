// The same gathers of 4-byte elements without the races: "relax" writes
// its averages to another View, and the host sums the int counts through
// the permutation after a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096, K = 4;
    Kokkos::View<float *> a("a", n), b("b", n);
    Kokkos::View<int *> count("count", n);
    Kokkos::View<int **> conn("conn", n, K);
    Kokkos::View<unsigned *> perm("perm", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      a(i) = (float)(i % 7);
      for (int k = 0; k < K; ++k)
        conn(i, k) = (i - 1 - k + n) % n;
      perm(i) = (unsigned)(n - 1 - i);
    });
    Kokkos::fence();
    Kokkos::parallel_for("relax", n, KOKKOS_LAMBDA(const int i) {
      float s = 0;
      for (int k = 0; k < K; ++k) {
        const int j = conn(i, k);
        s += a(j);
      }
      b(i) = s / K;
    });
    Kokkos::parallel_for("count", n, KOKKOS_LAMBDA(const int i) { count(i) = i % 5; });
    Kokkos::fence();
    long total = 0;
    for (int i = 0; i < n; ++i)
      total += count(perm(i));
    printf("%g %ld\n", b(7), total);
  }
  Kokkos::finalize();
  return 0;
}
