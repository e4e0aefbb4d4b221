// Rows of 7 and of 5 ints, one row per iteration, written in inner loops
// that the compiler unrolls (each k a store that the pass checks as a
// loop over the iterations, 28 or 20 bytes apart, before the first
// iteration): the View's chunks take half-cells at once, and every other
// row's end shares a word with the next row's start, written by another
// iteration.  Nothing races: a second kernel reads each row's neighbours
// (ordered after the first), and the host reads after a fence.  The sums
// are checked.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000; /* 11 MB and 8 MB: several chunks each */
    Kokkos::View<int *> a("a", n * 7), b("b", n * 5);
    Kokkos::View<long *> s("s", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < 7; ++k)
        a(i * 7 + k) = i + k;
      for (int k = 0; k < 5; ++k)
        b(i * 5 + k) = i - k;
    });
    Kokkos::parallel_for("neighbours", n, KOKKOS_LAMBDA(const int i) {
      long t = a(i * 7) + b(i * 5 + 4);
      if (i > 0)
        t += a(i * 7 - 1) + b(i * 5 - 1);
      if (i + 1 < n)
        t += a(i * 7 + 7) + b(i * 5 + 5);
      s(i) = t;
    });
    Kokkos::fence();
    long total = 0, want = 0;
    for (int i = 0; i < n; ++i) {
      total += s(i);
      long t = i + (i - 4);
      if (i > 0)
        t += (i - 1 + 6) + (i - 1 - 4);
      if (i + 1 < n)
        t += (i + 1) + (i + 1);
      want += t;
    }
    printf("%ld %ld\n", total, want);
    if (total != want)
      return 1;
  }
  Kokkos::finalize();
  return 0;
}
