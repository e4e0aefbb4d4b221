// Kokkos atomics done right in kernels whose loops kkrace checks before
// they run: a histogram by atomic_add at indices read from a View (many
// strands per bin), kernel after kernel with no fence between them; an
// atomic_add into each strand's own element and an atomic read of its
// neighbour's; the host reading the counts after a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 14, nb = 64;
    Kokkos::View<int *> idx("idx", n);
    Kokkos::View<long *> bins("bins", nb), w("w", n + 1), z("z", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(int i) {
          idx(i) = (int)((i * 2654435761u) >> 7) % nb;
        });
    for (int rep = 0; rep < 3; ++rep) {
      Kokkos::parallel_for(
          "hist", n, KOKKOS_LAMBDA(int i) {
            Kokkos::atomic_add(&bins(idx(i)), (long)rep);
          });
      Kokkos::parallel_for(
          "own", n, KOKKOS_LAMBDA(int i) {
            Kokkos::atomic_add(&w(i), 2L);
            z(i) = Kokkos::atomic_fetch_add(&w(i + 1), 0L);
          });
    }
    Kokkos::fence();
    long s = 0;
    for (int b = 0; b < nb; ++b) s += bins(b);
    printf("%ld %ld\n", s, z(5));
  }
  Kokkos::finalize();
  return 0;
}
