// MDRange kernels of 4 to 6 indices whose iterations differ only in an
// index after the third: each of them is its own strand (the middle
// indices are folded into one strand index), so a write that two of them
// share races, and the report names both iterations with all their
// indices.
// EXPECT: data-race view=s4 subkind=iteration-overlap nodes=parallel_for:md4,parallel_for:md4 lines=25,25
// EXPECT: data-race view=s5 subkind=iteration-overlap nodes=parallel_for:md5,parallel_for:md5 lines=29,29
// EXPECT: data-race view=s6 subkind=iteration-overlap nodes=parallel_for:md6,parallel_for:md6 lines=33,33
// EXPECT-TEXT: by parallel_for 'md4' iteration (1, 2, 3, 1)
// EXPECT-TEXT: by parallel_for 'md4' iteration (1, 2, 3, 0)
// EXPECT-TEXT: by parallel_for 'md5' iteration (0, 1, 0, 1, 1)
// EXPECT-TEXT: by parallel_for 'md6' iteration (0, 0, 0, 0, 0, 1)
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double ***> s4("s4", 2, 3, 4);
    Kokkos::View<double ****> s5("s5", 2, 2, 2, 2);
    Kokkos::View<double ****> s6("s6", 2, 2, 2, 2);
    using P4 = Kokkos::MDRangePolicy<Kokkos::Rank<4>>;
    // (1, 2, 3, 0) and (1, 2, 3, 1) both write s4(1, 2, 3).
    Kokkos::parallel_for("md4", P4({1, 2, 3, 0}, {2, 3, 4, 2}), KOKKOS_LAMBDA(int i, int j, int k, int l) {
      s4(i, j, k) = l;
    });
    // Along the fifth index only.
    Kokkos::parallel_for("md5", Kokkos::MDRangePolicy<Kokkos::Rank<5>>({0, 1, 0, 1, 0}, {1, 2, 1, 2, 2}), KOKKOS_LAMBDA(int i, int j, int k, int l, int m) {
      s5(i, j, k, l) = m;
    });
    // Along the fourth index of six.
    Kokkos::parallel_for("md6", Kokkos::MDRangePolicy<Kokkos::Rank<6>>({0, 0, 0, 0, 0, 0}, {2, 2, 2, 2, 2, 2}), KOKKOS_LAMBDA(int i, int j, int k, int l, int m, int n) {
      s6(i, j, k, m + 0 * n) += l;
    });
    Kokkos::fence();
    printf("%g %g %g\n", s4(1, 1, 1), s5(1, 1, 1, 1), s6(1, 1, 1, 1));
  }
  Kokkos::finalize();
  return 0;
}
