// Every iteration reads its left neighbour; the even iterations also write
// their own element under a condition.  The unconditional read is checked
// for all iterations at once before the loop, the conditional write one
// iteration at a time: the race between them is found all the same.
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:mixed,parallel_for:mixed lines=16,18
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> a("a", n + 1), b("b", n + 1);
    Kokkos::parallel_for("mixed", Kokkos::RangePolicy<>(1, n),
                         KOKKOS_LAMBDA(const int i) {
                           b(i) = a(i - 1);
                           if (i % 2 == 0)
                             a(i) = 2.0 * i;
                         });
    Kokkos::fence();
    printf("%g\n", b(5));
  }
  Kokkos::finalize();
  return 0;
}
