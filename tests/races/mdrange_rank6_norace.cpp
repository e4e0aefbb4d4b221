// The twin of mdrange_rank6_race: MDRange kernels of 4 to 6 indices, each
// iteration writing its own element and reading its neighbours in another
// View, as many iterations as the extents give (up to 2^16 in a middle
// index of a rank-6 kernel).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double ****> a("a", 3, 4, 5, 6), b("b", 3, 4, 5, 6);
    Kokkos::View<double *****> c("c", 2, 3, 2, 3, 4);
    Kokkos::View<double ******> d("d", 2, 2, 2, 300, 2, 2);
    Kokkos::deep_copy(b, 1.0);
    Kokkos::parallel_for("md4", Kokkos::MDRangePolicy<Kokkos::Rank<4>>({0, 0, 0, 1}, {3, 4, 5, 5}), KOKKOS_LAMBDA(int i, int j, int k, int l) {
      a(i, j, k, l) = b(i, j, k, l - 1) + b(i, j, k, l + 1);
    });
    Kokkos::parallel_for("md5", Kokkos::MDRangePolicy<Kokkos::Rank<5>>({0, 0, 0, 0, 0}, {2, 3, 2, 3, 4}), KOKKOS_LAMBDA(int i, int j, int k, int l, int m) {
      c(i, j, k, l, m) = i + j + k + l + m;
    });
    Kokkos::parallel_for("md6", Kokkos::MDRangePolicy<Kokkos::Rank<6>>({0, 0, 0, 0, 0, 0}, {2, 2, 2, 300, 2, 2}), KOKKOS_LAMBDA(int i, int j, int k, int l, int m, int n) {
      d(i, j, k, l, m, n) = l;
    });
    Kokkos::fence();
    printf("%g %g %g\n", a(1, 1, 1, 1), c(1, 1, 1, 1, 1), d(1, 1, 1, 299, 1, 1));
  }
  Kokkos::finalize();
  return 0;
}
