// The twin of dualview_modify_race: each sync_host() follows a
// modify_device() of the same DualView, made through a copy of it (a
// helper taking the DualView by value, as Kokkos' own code does), through
// modify<Device>(), or twice in a row (the second sync copies nothing, and
// needs nothing: the first one fenced).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>
#include <cstdio>

using dual = Kokkos::DualView<double *>;

__attribute__((noinline)) void mark_device(dual v) { v.modify_device(); }

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    dual a("a", n), b("b", n);
    auto da = a.d_view, db = b.d_view;
    auto ha = a.h_view, hb = b.h_view;
    double s = 0;
    Kokkos::parallel_for("fill_a", n, KOKKOS_LAMBDA(const int i) { da(i) = i; });
    mark_device(a);
    a.sync_host();
    for (int i = 0; i < n; i++)
      s += ha(i);
    a.sync_host();
    for (int i = 0; i < n; i++)
      s += ha(i);
    Kokkos::parallel_for("fill_b", n, KOKKOS_LAMBDA(const int i) { db(i) = i; });
    b.modify<dual::execution_space>();
    b.sync_host();
    for (int i = 0; i < n; i++)
      s += hb(i);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
