// MDRange iterations with accesses that stay in the loop (a write under a
// condition the loop checks cannot express), which begin and end their
// strands without a call: rank 2 and rank 3, indices that pack into a
// strand id, rows that cross from packed to hashed ids (iterated in tiles
// of 4 and 14 elements: a kernel's first row, one tile's, sets the rows'
// length in its first layout of ids), rows hashed whole, and a reduction.  Iteration (.., k) with k % 7 == 3 writes element k + 1,
// which iteration (.., k + 1) reads.
// EXPECT: data-race view=p2 subkind=iteration-overlap nodes=parallel_for:packed2,parallel_for:packed2 lines=28,29
// EXPECT: data-race view=c2 subkind=iteration-overlap nodes=parallel_for:crossing2,parallel_for:crossing2 lines=33,34
// EXPECT: data-race view=p3 subkind=iteration-overlap nodes=parallel_for:packed3,parallel_for:packed3 lines=38,39
// EXPECT: data-race view=c3 subkind=iteration-overlap nodes=parallel_for:crossing3,parallel_for:crossing3 lines=43,44
// EXPECT: data-race view=h3 subkind=iteration-overlap nodes=parallel_for:hashed3,parallel_for:hashed3 lines=48,49
// EXPECT: data-race view=s2 subkind=iteration-overlap nodes=parallel_reduce:sum2,parallel_reduce:sum2 lines=55,56
// EXPECT-TEXT: by parallel_for 'crossing2' iteration (1, 1053) (approximately)
// EXPECT-TEXT: by parallel_for 'hashed3' iteration (1, 131, 3) (approximately)
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using MD2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    using MD3 = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;
    Kokkos::View<double **> p2("p2", 8, 40), c2("c2", 3, 1200), s2("s2", 6, 1100);
    Kokkos::View<double ***> p3("p3", 4, 8, 40), c3("c3", 3, 8, 100), h3("h3", 3, 140, 40);
    Kokkos::View<double **> r2("r2", 8, 1200);
    Kokkos::View<double ***> r3("r3", 4, 140, 100);
    Kokkos::parallel_for("packed2", MD2({0, 0}, {8, 38}), KOKKOS_LAMBDA(const int i, const int k) {
      if (k % 7 == 3) p2(i, k + 1) = k;
      r2(i, k) = p2(i, k);
    });
    // Ids packed below 1024, hashed beyond: the race is at k = 1053.
    Kokkos::parallel_for("crossing2", MD2({1, 1020}, {3, 1190}, {1, 4}), KOKKOS_LAMBDA(const int i, const int k) {
      if (k % 7 == 3 && k > 1050) c2(i, k + 1) = k;
      r2(i, k) = c2(i, k);
    });
    Kokkos::parallel_for("packed3", MD3({0, 0, 0}, {4, 8, 38}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
      if (k % 7 == 3) p3(i, j, k + 1) = k;
      r3(i, j, k) = p3(i, j, k);
    });
    Kokkos::parallel_for("crossing3", MD3({1, 0, 50}, {3, 8, 99}, {1, 1, 14}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
      if (k % 7 == 3 && k > 70) c3(i, j, k + 1) = k;
      r3(i, j, k) = c3(i, j, k);
    });
    Kokkos::parallel_for("hashed3", MD3({1, 131, 0}, {3, 140, 38}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
      if (k % 7 == 3) h3(i, j, k + 1) = k;
      r3(i, j, k) = h3(i, j, k);
    });
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum2", MD2({0, 1000}, {6, 1090}),
        KOKKOS_LAMBDA(const int i, const int k, double &s) {
          if (k % 7 == 3 && k > 1030) s2(i, k + 1) = 1.0;
          s += s2(i, k);
        },
        sum);
    printf("%f\n", sum);
  }
  Kokkos::finalize();
  return 0;
}
