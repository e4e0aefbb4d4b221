// The host reads what a kernel writes without fencing first: the kernel may
// still be running (it does on CUDA).
// EXPECT: data-race view=x subkind=missing-fence nodes=parallel_for:init,host lines=13,14 ops=read,write
// EXPECT-TEXT: No fence orders the work on Serial instance 0 with the host thread's access
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *, Kokkos::HostSpace> x("x", 64);
    Kokkos::parallel_for("init", 64,
                         KOKKOS_LAMBDA(const int i) { x(i) = 2.0 * i; });
    printf("%g\n", x(10));
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
