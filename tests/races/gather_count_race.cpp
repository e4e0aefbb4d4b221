// Gathers whose counts are known at run time only: one neighbour per
// entity (K = 1: the gather's single element, checked as a single access),
// and 32 neighbours into Views of 1 MiB (long gathers into large Views,
// whose cells are prefetched ahead).  "pull" reads a(j) of the entity
// before it and writes a(i); "pull4" does the same in an int View; "smooth"
// reads b at 32 entities behind it and writes b(i): each reads what other
// iterations of its kernel write (a race on OpenMP and Threads).
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:pull,parallel_for:pull lines=42,44 ops=write,read
// EXPECT: data-race view=c subkind=iteration-overlap nodes=parallel_for:pull4,parallel_for:pull4 lines=50,52 ops=write,read
// EXPECT: data-race view=b subkind=iteration-overlap nodes=parallel_for:smooth,parallel_for:smooth lines=58,60 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // (Counts the compiler cannot see: 1 and 32.)
    const int K = argc > 100 ? atoi(argv[1]) : 1;
    const int K2 = argc > 100 ? atoi(argv[2]) : 32;
    const int n = 4096, m = 1 << 17;
    Kokkos::View<double *> a("a", n);
    Kokkos::View<int *> c("c", n);
    Kokkos::View<double *> b("b", m);
    Kokkos::View<int **> conn("conn", n, K), conn2("conn2", m, K2);
    Kokkos::parallel_for("init", m, KOKKOS_LAMBDA(const int i) {
      if (i < n) {
        a(i) = i % 7;
        c(i) = i % 5;
        for (int k = 0; k < K; ++k)
          conn(i, k) = (i - 1 + n) % n;
      }
      b(i) = i % 3;
      for (int k = 0; k < K2; ++k)
        conn2(i, k) = (i - 1 - 37 * k + 64 * m) % m;
    });
    Kokkos::fence();
    Kokkos::parallel_for("pull", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K; ++k) {
        const int j = conn(i, k);
        s += a(j);
      }
      a(i) = s + 1;
    });
    Kokkos::parallel_for("pull4", n, KOKKOS_LAMBDA(const int i) {
      int s = 0;
      for (int k = 0; k < K; ++k) {
        const int j = conn(i, k);
        s += c(j);
      }
      c(i) = s + 1;
    });
    Kokkos::parallel_for("smooth", m, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K2; ++k) {
        const int j = conn2(i, k);
        s += b(j);
      }
      b(i) = s / K2;
    });
    Kokkos::fence();
    printf("%g %d %g\n", a(7), c(7), b(7));
  }
  Kokkos::finalize();
  return 0;
}
