// An array of int with the Atomic trait: one kernel writes each element
// (its shadow turns into half-cells: neighbouring elements, one strand
// each), the next reads each element and its neighbour atomically, so that
// two strands read each half, and one of its iterations also writes an
// element plainly.  The plain write races with the atomic reads of two
// other iterations, one at each of the two reads of line 25.
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:pairs,parallel_for:pairs atomic=0,1 lines=25,27
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:pairs,parallel_for:pairs atomic=0,1 lines=25,27
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 18;
    Kokkos::View<int *, Kokkos::MemoryTraits<Kokkos::Atomic>> a("a", n);
    Kokkos::View<long *> s("s", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) { a(i) = i; });
    Kokkos::fence();
    Kokkos::View<int *> p(a.data(), n);
    Kokkos::parallel_for(
        "pairs", n, KOKKOS_LAMBDA(const int i) {
          long v = 0;
          if (i > 0)
            v = a(i) + a(i ^ 1);
          else
            p(n / 2) = -1;
          s(i) = v;
        });
    Kokkos::fence();
    long total = 0;
    for (int i = 0; i < n; i += 1024)
      total += p(i);
    printf("%ld\n", total);
  }
  Kokkos::finalize();
  return 0;
}
