// resize keeps the contents (Kokkos copies them with a kernel on the View's
// execution space; Kokkos 3.4 does not fence after it, Kokkos 4 does),
// realloc does not; a kernel on the same instance, or a fence, orders what
// follows.  The old allocation is freed inside resize, after Kokkos' own
// copy of it: the kernel that filled it was fenced before (Kokkos 3.4 frees
// it without a fence: resize_pending_race).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> v("v", 16);
    Kokkos::View<double **> m("m", 4, 4);
    Kokkos::parallel_for("fill", 16, KOKKOS_LAMBDA(const int i) { v(i) = i; });
    Kokkos::fence();
    Kokkos::resize(v, 32);
    Kokkos::parallel_for("use", 16, KOKKOS_LAMBDA(const int i) { v(i + 16) = v(i); });
    Kokkos::resize(m, 8, 8);
    Kokkos::fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    Kokkos::realloc(v, 64);
    Kokkos::parallel_for("again", 64, KOKKOS_LAMBDA(const int i) { v(i) = -i; });
    Kokkos::fence();
    printf("%g %g\n", h(20), m(1, 1));
  }
  Kokkos::finalize();
  return 0;
}
