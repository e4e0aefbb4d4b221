// An array of int with the Atomic trait: one kernel writes each element
// (its shadow turns into half-cells: neighbouring elements, one strand
// each), the next reads each element and its neighbour atomically (two
// strands read each half, decided in the half-cells), and the host reads
// the array after a fence: no report.
// EXPECT: no-report
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
        "pairs", n, KOKKOS_LAMBDA(const int i) { s(i) = a(i) + a(i ^ 1); });
    Kokkos::parallel_for(
        "bump", n, KOKKOS_LAMBDA(const int i) { a(i) += 1; });
    Kokkos::fence();
    long total = 0;
    for (int i = 0; i < n; i += 1024)
      total += p(i) + s(i);
    printf("%ld\n", total);
  }
  Kokkos::finalize();
  return 0;
}
