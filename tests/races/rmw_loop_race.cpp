// Iterations that read an element and then write it back (y(i) += ...) are
// checked as one read-then-write per element; a neighbour's element read or
// updated by another iteration is still a race, with both accesses named,
// in short loops and in long ones (checked a chunk at a time), for doubles
// and for ints (which share 8-byte words), and for a rank-0 counter.
// (One report per pair of code locations: the read and the write of a line are one.)
// EXPECT: data-race view=y subkind=iteration-overlap nodes=parallel_for:next,parallel_for:next lines=22,22 ops=read,write
// EXPECT: data-race view=z subkind=iteration-overlap nodes=parallel_for:prev,parallel_for:prev lines=24,24 ops=read,write
// EXPECT: data-race view=big subkind=iteration-overlap nodes=parallel_for:long,parallel_for:long lines=26,26 ops=read,write
// EXPECT: data-race view=c subkind=iteration-overlap nodes=parallel_for:ints,parallel_for:ints lines=28,28 ops=read,write
// EXPECT: data-race view=sum subkind=iteration-overlap nodes=parallel_for:total,parallel_for:total lines=30,30 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64, m = 5000;
    Kokkos::View<double *> y("y", n + 1), z("z", n + 1), big("big", m + 1);
    Kokkos::View<int *> c("c", n + 1);
    Kokkos::View<double> sum("sum");
    Kokkos::parallel_for("next", n, KOKKOS_LAMBDA(const int i) { y(i) += y(i + 1); });
    Kokkos::fence();
    Kokkos::parallel_for("prev", n, KOKKOS_LAMBDA(const int i) { z(i + 1) += z(i); });
    Kokkos::fence();
    Kokkos::parallel_for("long", m, KOKKOS_LAMBDA(const int i) { big(i) += 0.5 * big(i + 1); });
    Kokkos::fence();
    Kokkos::parallel_for("ints", n, KOKKOS_LAMBDA(const int i) { c(i + 1) += c(i) + 1; });
    Kokkos::fence();
    Kokkos::parallel_for("total", n, KOKKOS_LAMBDA(const int i) { sum() += y(i); });
    Kokkos::fence();
    printf("%g %g %g %d %g\n", y(0), z(n), big(0), c(n), sum());
  }
  Kokkos::finalize();
  return 0;
}
