// Each iteration but the first writes its left neighbour's element, under
// `if (i > 0)`, which that neighbour writes too: a race on the elements
// b[0] to b[98], no more and no fewer.  (At -O2 the optimizer gives the
// address of b(i - 1) under the guard as the 31 bits of a non-negative
// int, widened with zeros; the write is checked before the loop for the
// iterations that make it, whose count the report gives.)
// EXPECT: data-race view=b subkind=iteration-overlap nodes=parallel_for:smear,parallel_for:smear lines=19,21 ops=write,write
// EXPECT-TEXT: raced on 99 elements
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> a("a", n), b("b", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { a(i) = i; });
    Kokkos::parallel_for("smear", n, KOKKOS_LAMBDA(const int i) {
      b(i) = a(i);
      if (i > 0)
        b(i - 1) = 0.5 * a(i);
    });
    Kokkos::fence();
    printf("%g\n", b(n / 2));
  }
  Kokkos::finalize();
  return 0;
}
