// DualView used by the book, with modify_host / sync_device / modify_device
// / sync_host: after sync_host() the host may read the host view.  (When
// both views are one array, as on Serial, Kokkos 3.4 to 4.6 skip these
// calls altogether, fence included, unlike sync<Device>(): kokkos/kokkos
// issue 7946.  The program keeps DualView's contract.)
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::DualView<double *> dv("dv", n);
    auto h = dv.h_view;
    auto d = dv.d_view;
    for (int i = 0; i < n; i++) h(i) = i;
    dv.modify_host();
    dv.sync_device();
    Kokkos::parallel_for(
        "scale", n, KOKKOS_LAMBDA(const int i) { d(i) = 2 * d(i); });
    dv.modify_device();
    dv.sync_host();
    double s = 0;
    for (int i = 0; i < n; i++) s += h(i);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
