// deep_copy(exec, dst, src), then exec.fence(), then the host reads dst.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::DefaultExecutionSpace exec;
    Kokkos::View<double *> src("src", n);
    Kokkos::View<double *, Kokkos::HostSpace> dst("dst", n);
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<>(exec, 0, n),
                         KOKKOS_LAMBDA(const int i) { src(i) = i; });
    Kokkos::deep_copy(exec, dst, src);
    exec.fence();
    printf("%g\n", dst(5));
  }
  Kokkos::finalize();
  return 0;
}
