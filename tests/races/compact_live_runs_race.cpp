// Runs of 4-byte elements that become compact halves while their records
// are live: "fill" writes an array of int a MiB and more long (a run of its
// strands' writes), and "pick", which nothing fences after it, increments
// elements at scattered indices, which turns the run into compact halves
// (one record a half, from the run's rule).  The host then writes an
// element that only "fill" wrote and one that "pick" incremented, without
// a fence: both race.  "fill2" and "pick2" do the same after a fence
// (the fill's records settled, which the halves leave out), and the host
// writes after the last fence: no race there.
// EXPECT: data-race view=a subkind=missing-fence nodes=host,parallel_for:fill lines=32,24 ops=write,write
// EXPECT: data-race view=a subkind=missing-fence nodes=host,parallel_for:pick lines=33,28 ops=write,write
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 600000, m = 1000;
    const int k = argc > 100 ? atoi(argv[1]) : 7;
    Kokkos::View<int *> a("a", n), b("b", n);
    Kokkos::View<int *> idx("idx", m);
    Kokkos::parallel_for("index", m, KOKKOS_LAMBDA(const int i) { idx(i) = (i * 7919) % n; });
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) { a(i) = i; });
    Kokkos::parallel_for("pick", m, KOKKOS_LAMBDA(const int i) {
      const int j = idx(i);
      if (j % 2 == 0)
        a(j) += 1;
    });
    // (k is odd: an element only "fill" wrote; 7919 * 2 is even, and
    // "pick" incremented it.)
    a(k) = -1;
    a(7919 * 2) = -2;
    Kokkos::fence();
    Kokkos::parallel_for("fill2", n, KOKKOS_LAMBDA(const int i) { b(i) = i; });
    Kokkos::fence();
    Kokkos::parallel_for("pick2", m, KOKKOS_LAMBDA(const int i) {
      const int j = idx(i);
      if (j % 2 == 0)
        b(j) += 1;
    });
    Kokkos::fence();
    b(k) = -1;
    b(7919 * 2) = -2;
    printf("%d %d %d\n", a(k), a(0), b(k));
  }
  Kokkos::finalize();
  return 0;
}
