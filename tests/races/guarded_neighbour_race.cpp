// The iterations from lo to hi - 1 (known only at run time) write their
// right neighbour's element, which that neighbour reads: a race on the ten
// elements u[11] to u[20], no more and no fewer.  (At -O2 the conditional
// write is checked before the loop for the iterations that make it: an
// iteration too many or too few would change the count.)
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:guarded,parallel_for:guarded lines=21,23
// EXPECT-TEXT: (u[11], element 11 of 101)
// EXPECT-TEXT: raced on 10 elements
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    const int lo = argc > 9 ? 0 : 10, hi = argc > 9 ? n : 20;
    Kokkos::View<double *> u("u", n + 1), r("r", n);
    Kokkos::parallel_for("guarded", n, KOKKOS_LAMBDA(const int i) {
      // (lo and hi: two comparisons the optimizer cannot merge into one.)
      if (i >= lo) {
        r(i) = u(i);
        if (i < hi)
          u(i + 1) = 2.0 * i;
      }
    });
    Kokkos::fence();
    printf("%g\n", r(5));
  }
  Kokkos::finalize();
  return 0;
}
