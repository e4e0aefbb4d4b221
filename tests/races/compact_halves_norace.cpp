// Arrays of int kept as compact halves (one record per element): a kernel
// writes each element of `a` through a computed index (the first accesses
// to its chunks: their records are the writes), a fence settles them, the
// next kernel reads each element and its neighbour (two strands read each
// element: one record says so), and the one after it, ordered after it on
// the same instance, writes each element plainly.  Then a kernel reads
// them with no fence between (a read after a write that is not settled
// takes two records: the halves become whole ones).  Every iteration of a
// last kernel adds to an element of `bins` atomically.  The host reads all
// of it after a fence: no report, and the sums are right.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 19, nb = 1 << 18; /* 2 MiB and 1 MiB */
    Kokkos::View<int *> a("a", n), bins("bins", nb);
    Kokkos::View<long *> s("s", n);
    Kokkos::parallel_for(
        "fill", n, KOKKOS_LAMBDA(const int i) { a((int)(((long)i * 7919) % n)) = 1; });
    Kokkos::fence();
    Kokkos::parallel_for(
        "reads", n, KOKKOS_LAMBDA(const int i) { s(i) = a(i) + a(i ^ 1); });
    Kokkos::parallel_for(
        "bump", n, KOKKOS_LAMBDA(const int i) { a((int)(((long)i * 7919) % n)) = 2; });
    Kokkos::parallel_for(
        "again", n, KOKKOS_LAMBDA(const int i) { s(i) += a(i ^ 1); });
    Kokkos::parallel_for(
        "hist", n, KOKKOS_LAMBDA(const int i) {
          Kokkos::atomic_add(&bins((int)(((long)i * 31) % nb)), 1);
        });
    Kokkos::fence();
    long total = 0, hist = 0;
    for (int i = 0; i < n; i++)
      total += s(i) + a(i);
    for (int i = 0; i < nb; i++)
      hist += bins(i);
    if (total != 6L * n || hist != n) {
      printf("wrong: %ld %ld\n", total, hist);
      return 1;
    }
    printf("%ld %ld\n", total, hist);
  }
  Kokkos::finalize();
  return 0;
}
