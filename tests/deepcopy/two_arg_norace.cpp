// A kernel writes d; the two-argument deep_copy fences before and after
// copying it to h, so the host reads h safely; then host writes h and copies
// it back with the same guarantee.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double **> d("d", n, 4);
    auto h = Kokkos::create_mirror_view(d);
    Kokkos::parallel_for("touch", n, KOKKOS_LAMBDA(const int i) {
      for (int j = 0; j < 4; ++j)
        d(i, j) = i + j;
    });
    Kokkos::deep_copy(h, d);
    h(3, 1) += 1.0;
    Kokkos::deep_copy(d, h);
    auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
    printf("%g %g\n", h(3, 1), m(2, 2));
  }
  Kokkos::finalize();
  return 0;
}
