// MDRange iterations with Iterate::Left over LayoutLeft Views: the first
// index runs innermost, so that each loop over it meets a new row of
// strand ids at every element.  Each iteration (i, j) reads what
// iteration (i + 1, j) writes, with ids packed (indices below 1024) and
// hashed (beyond).
// EXPECT: data-race view=p subkind=iteration-overlap nodes=parallel_for:left_packed,parallel_for:left_packed lines=24,24
// EXPECT: data-race view=h subkind=iteration-overlap nodes=parallel_for:left_hashed,parallel_for:left_hashed lines=28,28
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using left = Kokkos::LayoutLeft;
    using MD2 = Kokkos::MDRangePolicy<
        Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
    Kokkos::View<double **, left> p("p", 300, 3), h("h", 3000, 3);
    Kokkos::deep_copy(p, 1.0);
    Kokkos::deep_copy(h, 1.0);
    Kokkos::fence();
    Kokkos::parallel_for(
        "left_packed", MD2({0, 0}, {299, 3}),
        KOKKOS_LAMBDA(const int i, const int j) {
          p(i, j) = p(i + 1, j) + 1.0;
        });
    Kokkos::parallel_for(
        "left_hashed", MD2({1000, 0}, {2999, 3}),
        KOKKOS_LAMBDA(const int i, const int j) { h(i, j) = h(i + 1, j) + 1.0; });
    Kokkos::fence();
    printf("%g %g\n", p(0, 0), h(1000, 1));
  }
  Kokkos::finalize();
  return 0;
}
