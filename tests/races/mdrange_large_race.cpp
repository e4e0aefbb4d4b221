// MDRange iterations whose indices do not pack into a strand id (rank 3
// beyond 128 x 128 x 64, rank 2 beyond 1024 x 1024): each shifts a row in
// place, so that iteration (.., k) reads what iteration (.., k + 1) writes,
// in rows that cross from packed to hashed ids and in rows hashed whole.
// EXPECT: data-race view=w3 subkind=iteration-overlap nodes=parallel_for:packed_to_hashed,parallel_for:packed_to_hashed lines=23,23
// EXPECT: data-race view=h3 subkind=iteration-overlap nodes=parallel_for:hashed_rows,parallel_for:hashed_rows lines=29,29
// EXPECT: data-race view=w2 subkind=iteration-overlap nodes=parallel_for:wide_rows,parallel_for:wide_rows lines=35,35
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double ***> w3("w3", 4, 8, 80), h3("h3", 3, 140, 80);
    Kokkos::View<double **> w2("w2", 3, 1100);
    using MD3 = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;
    using MD2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    // Rows of small (i, j): ids packed for k < 64, hashed beyond; the race
    // is between k = 70 and 71, far from the boundary, and across it
    // (63 reads 64).
    Kokkos::parallel_for(
        "packed_to_hashed", MD3({0, 0, 50}, {4, 8, 79}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
          w3(i, j, k) = w3(i, j, k + 1) + 1.0;
        });
    // Rows with j >= 128: hashed ids throughout.
    Kokkos::parallel_for(
        "hashed_rows", MD3({0, 130, 10}, {3, 140, 79}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
          h3(i, j, k) = h3(i, j, k + 1) + 1.0;
        });
    // Rank 2 rows crossing 1024.
    Kokkos::parallel_for(
        "wide_rows", MD2({0, 1000}, {3, 1099}),
        KOKKOS_LAMBDA(const int i, const int j) {
          w2(i, j) = w2(i, j + 1) + 1.0;
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
