// Kokkos' CUDA backend: the same two instances, ordered by a fence of the
// first; then both instances only read a View at once.
// EXPECT: no-report
// VARIANTS: preload
#include <Kokkos_Core.hpp>
#include <cstdio>
int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 20;
    auto inst = Kokkos::Experimental::partition_space(Kokkos::Cuda(), 1, 1);
    Kokkos::View<double *> a("a", n), b("b", n), c("c", n);
    Kokkos::fence();
    Kokkos::parallel_for("write_a", Kokkos::RangePolicy<>(inst[0], 0, n),
                         KOKKOS_LAMBDA(int i) { a(i) = i; });
    inst[0].fence();
    Kokkos::parallel_for("read_a", Kokkos::RangePolicy<>(inst[1], 0, n),
                         KOKKOS_LAMBDA(int i) { b(i) = 2 * a(i); });
    Kokkos::parallel_for("read_a_too", Kokkos::RangePolicy<>(inst[0], 0, n),
                         KOKKOS_LAMBDA(int i) { c(i) = 3 * a(i); });
    Kokkos::fence();
    printf("done\n");
  }
  Kokkos::finalize();
  return 0;
}
