// Two disjoint subviews written by two kernels in a row, and each iteration
// writes its own row: no race.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 16;
    Kokkos::View<double **, Kokkos::LayoutRight> a("a", n, n);
    auto left = Kokkos::subview(a, Kokkos::ALL, Kokkos::make_pair(0, 8));
    auto right = Kokkos::subview(a, Kokkos::ALL, Kokkos::make_pair(8, 16));
    Kokkos::parallel_for(
        "halves", n, KOKKOS_LAMBDA(const int i) {
          for (int j = 0; j < 8; ++j) {
            left(i, j) = 1.0;
            right(i, j) = 2.0;
          }
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
