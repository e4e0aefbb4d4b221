// An asynchronous fill, then a host write of the same View before the fence.
// EXPECT: data-race view=v subkind=missing-fence nodes=deep_copy,host lines=14,15
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 32;
    Kokkos::DefaultHostExecutionSpace exec;
    Kokkos::View<double *, Kokkos::HostSpace> v("v", n);
    Kokkos::View<double **, Kokkos::HostSpace> m("m", 4, 8);
    Kokkos::deep_copy(exec, m, 2.0);
    Kokkos::deep_copy(exec, v, 1.0);
    v(0) = 5.0;
    exec.fence();
    printf("%g %g\n", v(0), m(1, 1));
  }
  Kokkos::finalize();
  return 0;
}
