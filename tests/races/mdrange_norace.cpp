// The same stencil into a second View (Jacobi): no iteration writes what
// another reads.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 32;
    Kokkos::View<double **> u("u", n + 2, n + 2), v("v", n + 2, n + 2);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    Kokkos::parallel_for(
        "relax", MD({1, 1}, {n + 1, n + 1}),
        KOKKOS_LAMBDA(const int i, const int j) {
          v(i, j) = 0.25 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1));
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
