// Kokkos' CUDA backend: an asynchronous deep_copy on one instance fills a
// View that a kernel on another instance reads before any fence (the
// user-level race of Kokkos issue 5213's family).
// EXPECT: data-race subkind=unordered-streams view=a nodes=cudaMemcpy:cudaMemcpyAsync(HtoD),kernel:use_a
// VARIANTS: preload
#include <Kokkos_Core.hpp>
#include <cstdio>
int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 20;
    auto inst = Kokkos::Experimental::partition_space(Kokkos::Cuda(), 1, 1);
    Kokkos::View<double *> a("a", n), b("b", n);
    Kokkos::View<double *, Kokkos::CudaHostPinnedSpace> h("h", n);
    for (int i = 0; i < n; ++i)
      h(i) = i;
    Kokkos::fence();
    Kokkos::deep_copy(inst[0], a, h);
    Kokkos::parallel_for("use_a", Kokkos::RangePolicy<>(inst[1], 0, n),
                         KOKKOS_LAMBDA(int i) { b(i) = a(i) + 1; });
    Kokkos::fence();
    printf("done\n");
  }
  Kokkos::finalize();
  return 0;
}
