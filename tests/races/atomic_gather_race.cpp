// Kokkos atomics in kernels whose loops kkrace checks before they run (an
// atomic_add at an index read from a View, or at the strand's own
// element): atomic adds do not race with each other, but a plain read of
// a bin by another strand does, a plain write of the next strand's element
// does, and so does the host's read of counts no fence waited for.
// EXPECT: data-race view=bins subkind=iteration-overlap nodes=parallel_for:hist,parallel_for:hist atomic=0,1 lines=26,27
// EXPECT: data-race view=w subkind=iteration-overlap nodes=parallel_for:own,parallel_for:own atomic=0,1 lines=31,32
// EXPECT: data-race view=c subkind=missing-fence nodes=parallel_for:count,host lines=35,37
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 14, nb = 64;
    Kokkos::View<int *> idx("idx", n);
    Kokkos::View<long *> bins("bins", nb), w("w", n + 1), c("c", nb);
    Kokkos::View<long *> z("z", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(int i) {
          idx(i) = (int)((i * 2654435761u) >> 7) % nb;
        });
    Kokkos::fence();
    Kokkos::parallel_for(
        "hist", n, KOKKOS_LAMBDA(int i) {
          Kokkos::atomic_add(&bins(idx(i)), 1L);
          z(i) = bins(i % nb);
        });
    Kokkos::parallel_for(
        "own", n, KOKKOS_LAMBDA(int i) {
          Kokkos::atomic_add(&w(i), 2L);
          w(i + 1) = 0;
        });
    Kokkos::parallel_for(
        "count", n, KOKKOS_LAMBDA(int i) { Kokkos::atomic_add(&c(idx(i)), 1L); });
    long s = 0;
    for (int b = 0; b < nb; ++b) s += c(b);
    Kokkos::fence();
    printf("%ld %ld %ld\n", s, z(3), w(7));
  }
  Kokkos::finalize();
  return 0;
}
