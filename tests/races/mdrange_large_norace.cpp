// The twin of mdrange_large_race: the same rows (ids packed, then hashed;
// hashed whole; rank 2 beyond 1024) shifted into a second View, and each
// iteration updating its own element through a read the loop check covers
// and a write that only some iterations make (checked one by one): both
// must see one strand per iteration.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double ***> w3("w3", 4, 8, 80), o3("o3", 4, 8, 80);
    Kokkos::View<double ***> h3("h3", 3, 140, 80), g3("g3", 3, 140, 80);
    Kokkos::View<double **> w2("w2", 3, 1100), o2("o2", 3, 1100);
    using MD3 = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;
    using MD2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    Kokkos::parallel_for(
        "packed_to_hashed", MD3({0, 0, 50}, {4, 8, 79}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
          o3(i, j, k) = w3(i, j, k + 1) + 1.0;
        });
    Kokkos::parallel_for(
        "hashed_rows", MD3({0, 130, 10}, {3, 140, 79}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
          g3(i, j, k) = h3(i, j, k + 1) + 1.0;
        });
    Kokkos::parallel_for(
        "wide_rows", MD2({0, 1000}, {3, 1099}),
        KOKKOS_LAMBDA(const int i, const int j) {
          o2(i, j) = w2(i, j + 1) + 1.0;
        });
    Kokkos::fence();
    Kokkos::parallel_for(
        "own_3d", MD3({0, 0, 0}, {3, 140, 80}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
          const double x = g3(i, j, k);
          if (x > -1.0)
            g3(i, j, k) = x + 1.0;
        });
    Kokkos::parallel_for(
        "own_2d", MD2({0, 0}, {3, 1100}),
        KOKKOS_LAMBDA(const int i, const int j) {
          const double x = o2(i, j);
          if (x > -1.0)
            o2(i, j) = x + 1.0;
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
