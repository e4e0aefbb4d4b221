// Kokkos' CUDA backend: an asynchronous deep_copy(exec, view, value) fills a
// View on one instance (Kokkos runs a fill kernel) while a kernel on another
// instance reads it; after a fence of the first, a second reader is fine.
// EXPECT: data-race subkind=unordered-streams view=a nodes=kernel:Kokkos::ViewFill-1D,kernel:use_a
// VARIANTS: preload
#include <Kokkos_Core.hpp>
#include <cstdio>
int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 20;
    auto inst = Kokkos::Experimental::partition_space(Kokkos::Cuda(), 1, 1);
    Kokkos::View<double *> a("a", n), b("b", n);
    Kokkos::fence();
    Kokkos::deep_copy(inst[0], a, 1.5);
    Kokkos::parallel_for("use_a", Kokkos::RangePolicy<>(inst[1], 0, n),
                         KOKKOS_LAMBDA(int i) { b(i) = a(i) + 1; });
    inst[0].fence();
    Kokkos::parallel_for("use_a_later", Kokkos::RangePolicy<>(inst[1], 0, n),
                         KOKKOS_LAMBDA(int i) { b(i) += a(i); });
    Kokkos::fence();
    printf("done\n");
  }
  Kokkos::finalize();
  return 0;
}
