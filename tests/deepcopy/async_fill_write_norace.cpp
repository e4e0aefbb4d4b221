// Asynchronous fills of Views of ranks 1 to 3, a fence, then host writes.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::DefaultHostExecutionSpace exec;
    Kokkos::View<double *, Kokkos::HostSpace> v("v", 32);
    Kokkos::View<double **, Kokkos::LayoutLeft, Kokkos::HostSpace> m("m", 4, 8);
    Kokkos::View<int ***, Kokkos::HostSpace> c("c", 2, 3, 4);
    Kokkos::deep_copy(exec, v, 1.0);
    Kokkos::deep_copy(exec, m, 2.0);
    Kokkos::deep_copy(exec, c, 3);
    exec.fence();
    v(0) = 5.0;
    m(3, 7) = 1.0;
    c(1, 2, 3) = 0;
    printf("%g %g %d\n", v(0), m(1, 1), c(0, 0, 0));
  }
  Kokkos::finalize();
  return 0;
}
