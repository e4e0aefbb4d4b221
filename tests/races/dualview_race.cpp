// A DualView whose kernel modifies the device view, but the host reads the
// host view without sync_host: on a GPU it reads stale data, on Serial and
// OpenMP (one array) it reads while the kernel may still run.
// EXPECT: data-race view=dv subkind=missing-fence nodes=parallel_for:scale,host lines=20,23
#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::DualView<double *> dv("dv", n);
    auto h = dv.h_view;
    for (int i = 0; i < n; i++) h(i) = i;
    dv.modify_host();
    dv.sync_device();
    auto d = dv.d_view;
    Kokkos::parallel_for(
        "scale", n, KOKKOS_LAMBDA(const int i) { d(i) = 2 * d(i); });
    dv.modify_device();
    double s = 0;
    for (int i = 0; i < n; i++) s += h(i);
    printf("%g\n", s);
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
