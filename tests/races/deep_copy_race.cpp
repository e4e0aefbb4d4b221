// deep_copy orders what comes before and after it, but a hand-written copy
// loop does not: the host reads h while the kernel that writes it may run.
// EXPECT: data-race view=h subkind=missing-fence nodes=parallel_for:touch,host lines=16,17
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> d("d", n);
    Kokkos::View<double *, Kokkos::HostSpace> h("h", n);
    Kokkos::deep_copy(h, d);
    Kokkos::parallel_for(
        "touch", n,
        KOKKOS_LAMBDA(const int i) { h(i) = 2.0 * i; });
    for (int i = 0; i < n; ++i) d(i) = h(i);
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
