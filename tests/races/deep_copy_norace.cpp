// Two-argument deep_copy fences before and after copying: kernels before it
// and host code after it are ordered with the copy.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> d("d", n);
    auto h = Kokkos::create_mirror_view(d);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { d(i) = i; });
    Kokkos::deep_copy(h, d);
    printf("%g\n", h(n - 1));
    h(0) = 42;
    Kokkos::deep_copy(d, h);
    Kokkos::deep_copy(d, 1.5);
    Kokkos::parallel_for("scale", n, KOKKOS_LAMBDA(const int i) { d(i) *= 2; });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
