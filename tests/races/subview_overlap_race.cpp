// Two subviews of one View that overlap in one column, written by the same
// kernel: the kernel writes column 8 twice.
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:halves,parallel_for:halves lines=17,18
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 16;
    Kokkos::View<double **, Kokkos::LayoutRight> a("a", n, n);
    auto left = Kokkos::subview(a, Kokkos::ALL, Kokkos::make_pair(0, 9));
    auto right = Kokkos::subview(a, Kokkos::ALL, Kokkos::make_pair(8, 16));
    Kokkos::parallel_for(
        "halves", n, KOKKOS_LAMBDA(const int i) {
          const int r = (int)right.extent(1);
          for (int j = 0; j < 9; ++j)
            left(i, j) = 1.0;
          if (i > 0) right(i - 1, 0) = 2.0;
          (void)r;
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
