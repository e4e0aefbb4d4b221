// Reads of 4-byte elements (float, int) through an index array, which the
// pass checks before their loop, reading the indices itself: iteration i
// of "relax" averages a over the elements i - 1 to i - 4 and writes a(i),
// so that it reads what the iterations before it wrote (a race on OpenMP
// and Threads); the host then sums the int counts through a permutation
// while a kernel still writes them (no fence).
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:relax,parallel_for:relax lines=31,33 ops=write,read
// EXPECT: data-race view=count subkind=missing-fence nodes=parallel_for:count,host lines=35,38 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096, K = 4;
    Kokkos::View<float *> a("a", n);
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
      a(i) = s / K;
    });
    Kokkos::parallel_for("count", n, KOKKOS_LAMBDA(const int i) { count(i) = i % 5; });
    long total = 0;
    for (int i = 0; i < n; ++i)
      total += count(perm(i));
    Kokkos::fence();
    printf("%g %ld\n", a(7), total);
  }
  Kokkos::finalize();
  return 0;
}
