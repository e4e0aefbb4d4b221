// Kokkos' CUDA backend: the asynchronous deep_copy's instance is fenced
// before the other instance reads its destination; a kernel on the copy's
// own instance that overwrites the source comes after the copy (FIFO: the
// scenario of Kokkos issue 5213 on one thread).
// EXPECT: no-report
// VARIANTS: preload
#include <Kokkos_Core.hpp>
#include <cstdio>
int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 20;
    auto inst = Kokkos::Experimental::partition_space(Kokkos::Cuda(), 1, 1);
    Kokkos::View<double *> a("a", n), b("b", n), src("src", n);
    Kokkos::View<double *, Kokkos::CudaHostPinnedSpace> h("h", n);
    for (int i = 0; i < n; ++i)
      h(i) = i;
    Kokkos::fence();
    Kokkos::deep_copy(inst[0], a, h);
    inst[0].fence();
    Kokkos::parallel_for("use_a", Kokkos::RangePolicy<>(inst[1], 0, n),
                         KOKKOS_LAMBDA(int i) { b(i) = a(i) + 1; });
    Kokkos::deep_copy(inst[1], a, src);
    Kokkos::parallel_for("overwrite_src", Kokkos::RangePolicy<>(inst[1], 0, n),
                         KOKKOS_LAMBDA(int i) { src(i) = -1; });
    Kokkos::fence();
    printf("done\n");
  }
  Kokkos::finalize();
  return 0;
}
