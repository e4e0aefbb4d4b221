// The host overwrites the source of an asynchronous copy before the fence:
// the copy may not have read it yet.
// EXPECT: data-race view=src subkind=missing-fence nodes=deep_copy,host lines=15,16
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
    src(3) = -1.0;
    exec.fence();
    printf("%g\n", dst(3));
  }
  Kokkos::finalize();
  return 0;
}
