// A View of structs whose 4-byte fields share a word: every iteration adds
// atomically into one cell's energy and hit count, and each cell's owner
// sets its weight, the other half of the word that holds the hit count.
// The owner's plain write and the atomic adds touch different bytes: no
// race.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

struct Cell {
  double e;
  int hits;
  float w;
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 2000, ncells = 64;
    Kokkos::View<Cell *> cells("cells", ncells);
    Kokkos::parallel_for("deposit", n, KOKKOS_LAMBDA(const int i) {
      const int c = i % ncells;
      Kokkos::atomic_add(&cells(c).e, 0.5 * i);
      Kokkos::atomic_add(&cells(c).hits, 1);
      if (i < ncells)
        cells(i).w = 1.0f;
    });
    Kokkos::parallel_for("owners", ncells, KOKKOS_LAMBDA(const int i) {
      cells(i).hits = 0;
      cells(i).w = 2.0f;
      cells(i).e = 0;
    });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
