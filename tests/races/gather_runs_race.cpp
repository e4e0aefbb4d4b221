// Random updates through an index of large Views that a loop filled (kept
// as runs), as GUPS makes them: the elements they reach are decided one by
// one as the runs' exceptions.  "gups" updates data(idx(i)) where two
// iterations name the same element (a race on OpenMP and Threads: the
// update is not atomic); "gups4" does the same in an int View; "scatter"
// writes w(perm(i)) once each (no race among its iterations), and the
// host reads one of them before the fence.
// EXPECT: data-race view=data subkind=iteration-overlap nodes=parallel_for:gups,parallel_for:gups lines=33,33 ops=write,read
// EXPECT: data-race view=data4 subkind=iteration-overlap nodes=parallel_for:gups4,parallel_for:gups4 lines=35,35 ops=write,read
// EXPECT: data-race view=w subkind=missing-fence nodes=parallel_for:scatter,host lines=37,38 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int m = 1 << 18, n = 4096;
    Kokkos::View<double *> data("data", m), w("w", m);
    Kokkos::View<int *> data4("data4", 2 * m);
    Kokkos::View<long *> idx("idx", n), perm("perm", n);
    Kokkos::parallel_for("init", m, KOKKOS_LAMBDA(const int i) {
      data(i) = i;
      w(i) = 0;
      data4(2 * i) = data4(2 * i + 1) = 1;
    });
    Kokkos::parallel_for("indices", n, KOKKOS_LAMBDA(const int i) {
      // (Iteration 4095 names the element of iteration 0.)
      idx(i) = (long)(i % (n - 1)) * 61 % m;
      perm(i) = (long)i * 64 + 3;
    });
    Kokkos::fence();
    Kokkos::parallel_for("gups", n,
                         KOKKOS_LAMBDA(const int i) { data(idx(i)) += 1.0; });
    Kokkos::parallel_for("gups4", n,
                         KOKKOS_LAMBDA(const int i) { data4(idx(i)) ^= 5; });
    Kokkos::parallel_for("scatter", n,
                         KOKKOS_LAMBDA(const int i) { w(perm(i)) = i; });
    const double seen = w(64 * 17 + 3);
    Kokkos::fence();
    printf("%g %g %d\n", seen, data(0), data4(0));
  }
  Kokkos::finalize();
  return 0;
}
