// Kokkos' CUDA backend: two execution space instances (two CUDA streams)
// run a kernel writing a View and a kernel reading it, with no fence
// between them: nothing orders the two streams.
// EXPECT: data-race subkind=unordered-streams view=a nodes=kernel:write_a,kernel:read_a
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
    Kokkos::parallel_for("write_a", Kokkos::RangePolicy<>(inst[0], 0, n),
                         KOKKOS_LAMBDA(int i) { a(i) = i; });
    Kokkos::parallel_for("read_a", Kokkos::RangePolicy<>(inst[1], 0, n),
                         KOKKOS_LAMBDA(int i) { b(i) = 2 * a(i); });
    Kokkos::fence();
    printf("done\n");
  }
  Kokkos::finalize();
  return 0;
}
