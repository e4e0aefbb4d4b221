// create_mirror_view_and_copy is synchronous: it fences (and copies, when
// the mirror is a new allocation), so the host may read the mirror at once.
// EXPECT: no-report
// RUN: kokkos
// RUN: minikokkos model=minikokkos
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> v("v", 32);
    Kokkos::View<double **, Kokkos::LayoutLeft> m("m", 4, 8);
    Kokkos::parallel_for("fill", 32, KOKKOS_LAMBDA(const int i) {
      v(i) = i;
      m(i % 4, i / 4) = -i;
    });
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    auto hm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
    printf("%g %g\n", h(3), hm(1, 2));
    Kokkos::parallel_for("again", 32, KOKKOS_LAMBDA(const int i) { v(i) *= 2; });
    auto hc = Kokkos::create_mirror(v);
    Kokkos::deep_copy(hc, v);
    printf("%g\n", hc(3));
  }
  Kokkos::finalize();
  return 0;
}
