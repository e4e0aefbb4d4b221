// Gathers over the neighbourhoods of entities (each reads 16 entities
// around it, as a molecular dynamics' neighbour list does), decided by the
// gather's tight loop, with a write between an iteration's two gathers.
// Iteration n/2 of "pull" writes an element that the iterations around it
// read: its write races with the first gather's reads, and the second
// gather's reads of the iterations after it race with that write.  "atom"
// does the same with an atomic_add, which races with the plain reads.
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:pull,parallel_for:pull lines=33,35 ops=read,write
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:pull,parallel_for:pull lines=35,37 ops=write,read
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:atom,parallel_for:atom lines=44,46 ops=read,write
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:atom,parallel_for:atom lines=46,48 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // (A neighbour count the compiler cannot see.)
    const int K = argc > 100 ? atoi(argv[1]) : 16;
    const int n = 1 << 16;
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::View<int **> conn("conn", n, K);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        conn(i, k) = (i + n + (k * 7919) % 32 - 16) % n;
      x(i) = i;
    });
    Kokkos::fence();
    Kokkos::parallel_for("pull", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += x(conn(i, k));
      if (i == n / 2)
        x(n / 2 + 5) = 0;
      for (int k = 0; k < K; ++k)
        s += 0.5 * x(conn(i, k));
      y(i) = s;
    });
    Kokkos::fence();
    Kokkos::parallel_for("atom", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += x(conn(i, k));
      if (i == n / 3)
        Kokkos::atomic_add(&x(n / 3 + 5), 1.0);
      for (int k = 0; k < K; ++k)
        s += 0.5 * x(conn(i, k));
      y(i) += s;
    });
    Kokkos::fence();
    printf("%g\n", y(7));
  }
  Kokkos::finalize();
  return 0;
}
