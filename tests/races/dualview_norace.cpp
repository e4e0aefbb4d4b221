// DualView used by the book, with the templated sync: the host fills its
// view and marks it modified, sync to the device before the kernel, the
// kernel's side marked modified, sync to the host before the host reads.
// When both views share a memory space (Serial), sync<Device>() fences.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using dv_t = Kokkos::DualView<double *>;
    using host_dev = dv_t::t_host::device_type;
    using dev_dev = dv_t::t_dev::device_type;
    const int n = 100;
    dv_t dv("dv", n);
    auto h = dv.h_view;
    auto d = dv.d_view;
    dv.modify<host_dev>();
    for (int i = 0; i < n; i++) h(i) = i;
    dv.sync<dev_dev>();
    Kokkos::parallel_for(
        "scale", n, KOKKOS_LAMBDA(const int i) { d(i) = 2 * d(i); });
    dv.modify<dev_dev>();
    dv.sync<host_dev>();
    double s = 0;
    for (int i = 0; i < n; i++) s += h(i);
    dv.modify<host_dev>();
    h(0) = -1;
    dv.sync<dev_dev>();
    Kokkos::parallel_for(
        "shift", n, KOKKOS_LAMBDA(const int i) { d(i) += 1; });
    dv.modify<dev_dev>();
    dv.sync<host_dev>();
    printf("%g %g\n", s, h(0));
  }
  Kokkos::finalize();
  return 0;
}
