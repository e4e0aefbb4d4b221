// The host overwrites the source only after the copy's instance is fenced.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::DefaultHostExecutionSpace exec;
    Kokkos::View<double *, Kokkos::HostSpace> src("src", n), dst("dst", n);
    for (int i = 0; i < n; ++i)
      src(i) = i;
    Kokkos::deep_copy(exec, dst, src);
    exec.fence();
    src(3) = -1.0;
    printf("%g\n", dst(3));
  }
  Kokkos::finalize();
  return 0;
}
