// A gather whose index names one element several times in a row (the
// connectivity of Kokkos' gather benchmark with D = 1, where all K
// neighbours of i are one): a strand's repeated read of the element it
// has just read is decided once, and what races with that read is still
// found.  Iteration i of "pairs" reads a(i - 1) twice and a(i - 2) twice,
// then writes a(i); iteration i of "same" reads b(i + 1) K times, which
// iteration i + 1 writes.
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:pairs,parallel_for:pairs lines=36,34 ops=write,read
// EXPECT: data-race view=b subkind=iteration-overlap nodes=parallel_for:same,parallel_for:same lines=42,41 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // (K the compiler cannot see, so that it unrolls no gather.)
    const int n = 4096, K = argc > 5 ? 2 : 4;
    Kokkos::View<float *> a("a", n);
    Kokkos::View<double *> b("b", n);
    Kokkos::View<int **> pairs("pairs", n, K), same("same", n, K);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      a(i) = (float)(i % 7);
      b(i) = i % 3;
      for (int k = 0; k < K; ++k) {
        pairs(i, k) = (i - 1 - k / 2 + n) % n;
        same(i, k) = (i + 1) % n;
      }
    });
    Kokkos::fence();
    Kokkos::parallel_for("pairs", n, KOKKOS_LAMBDA(const int i) {
      float s = 0;
      for (int k = 0; k < K; ++k) {
        const int j = pairs(i, k);
        s += a(j);
      }
      a(i) = s / K;
    });
    Kokkos::parallel_for("same", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += b(same(i, k));
      b(i) = s;
    });
    Kokkos::fence();
    printf("%g %g\n", a(7), b(7));
  }
  Kokkos::finalize();
  return 0;
}
