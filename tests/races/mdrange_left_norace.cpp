// The twin of mdrange_left_race: MDRange iterations with Iterate::Left
// over LayoutLeft Views, each iteration (i, j) reading its neighbour
// (i + 1, j) of another View, with strand ids packed and hashed.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using left = Kokkos::LayoutLeft;
    using MD2 = Kokkos::MDRangePolicy<
        Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
    Kokkos::View<double **, left> p("p", 300, 3), h("h", 3000, 3), q("q", 300, 3), g("g", 3000, 3);
    Kokkos::deep_copy(p, 1.0);
    Kokkos::deep_copy(h, 1.0);
    Kokkos::deep_copy(q, 1.0);
    Kokkos::deep_copy(g, 1.0);
    Kokkos::fence();
    Kokkos::parallel_for(
        "left_packed", MD2({0, 0}, {299, 3}),
        KOKKOS_LAMBDA(const int i, const int j) {
          p(i, j) = q(i + 1, j) + 1.0;
        });
    Kokkos::parallel_for(
        "left_hashed", MD2({1000, 0}, {2999, 3}),
        KOKKOS_LAMBDA(const int i, const int j) { h(i, j) = g(i + 1, j) + 1.0; });
    Kokkos::fence();
    printf("%g %g\n", p(0, 0), h(1000, 1));
  }
  Kokkos::finalize();
  return 0;
}
