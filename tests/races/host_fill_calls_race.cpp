// The host fills arrays one element at a time through a call per element
// (the pass cannot check such a loop before it): its words join one flat
// rule at the front of the array's run.  A kernel reads the whole array
// and, unfenced, the host fills it again: each write races with the
// kernel's read (one report for the pair of sites).  A kernel writes an
// element of an array the host filled, and the host reads it before a
// fence.  And an array of int filled element by element, read by a kernel,
// then the host rewrites one element unfenced.  The host fills the first
// half of an array, a kernel reads the second half, and the host goes on
// filling from where it stopped, unfenced: its writes at the front race.
// EXPECT: data-race view=a subkind=missing-fence nodes=host,parallel_for:twice lines=45,43
// EXPECT: data-race view=b subkind=missing-fence nodes=host,parallel_for:poke lines=49,48
// EXPECT: data-race view=c subkind=missing-fence nodes=host,parallel_for:big lines=54,53
// EXPECT: data-race view=e subkind=missing-fence nodes=host,parallel_for:tail lines=63,61
#include <Kokkos_Core.hpp>
#include <cstdio>

static unsigned seed = 1;
__attribute__((noinline)) static double next_value() {
  seed = seed * 1103515245u + 12345u;
  return (double)(seed >> 16);
}
__attribute__((noinline)) static int next_int() {
  seed = seed * 1103515245u + 12345u;
  return (int)(seed >> 16) & 1023;
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 300000;
    Kokkos::View<double *> a("a", n), b("b", n);
    Kokkos::View<int *> c("c", 2 * n);
    for (int i = 0; i < n; i++)
      a(i) = next_value();
    for (int i = 0; i < n; i++)
      b(i) = next_value();
    for (int i = 0; i < 2 * n; i++)
      c(i) = next_int();
    Kokkos::fence();
    Kokkos::View<double *> twice("twice", n);
    Kokkos::parallel_for(
        "twice", n, KOKKOS_LAMBDA(const int i) { twice(i) = 2 * a(i); });
    for (int i = 0; i < n; i++)
      a(i) = next_value();
    Kokkos::fence();
    Kokkos::parallel_for(
        "poke", 1, KOKKOS_LAMBDA(const int) { b(12345) = 1.0; });
    const double seen = b(12345);
    Kokkos::fence();
    Kokkos::View<int *> big("big", 2 * n);
    Kokkos::parallel_for(
        "big", 2 * n, KOKKOS_LAMBDA(const int i) { big(i) = c(i) > 512; });
    c(77777) = 3;
    Kokkos::fence();
    Kokkos::View<double *> e("e", n), tail("tail", n);
    for (int i = 0; i < n / 2; i++)
      e(i) = next_value();
    Kokkos::fence();
    Kokkos::parallel_for(
        "tail", Kokkos::RangePolicy<>(n / 2, n), KOKKOS_LAMBDA(const int i) { tail(i) = e(i); });
    for (int i = n / 2; i < n; i++)
      e(i) = next_value();
    Kokkos::fence();
    printf("%g %g %d\n", twice(0), seen, big(0));
  }
  Kokkos::finalize();
  return 0;
}
