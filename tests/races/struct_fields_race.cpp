// A View of structs whose 4-byte fields share a word.  In the first
// kernel, each cell's owner sets its weight and then its hit count with
// plain writes while every iteration adds into the hit counts atomically:
// the owner's plain write races with the other iterations' atomic adds.
// In the second kernel, each owner writes both fields of its own cell and
// one more iteration writes the hit count of another cell: that plain
// write races with the owner's.  Reports count the View's elements as
// cells (16 bytes each), not as the fields' 4 bytes.
// EXPECT: data-race view=cells subkind=iteration-overlap nodes=parallel_for:deposit,parallel_for:deposit atomic=1,0 lines=30,28
// EXPECT: data-race view=cells subkind=iteration-overlap nodes=parallel_for:owners,parallel_for:owners lines=39,35 ops=write,write
// EXPECT-TEXT: (cells[7], element 7 of 64)
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
      if (i < ncells) {
        cells(i).w = 1.0f;
        cells(i).hits = 0;
      }
      Kokkos::atomic_add(&cells(i % ncells).hits, 1);
    });
    Kokkos::parallel_for("owners", n, KOKKOS_LAMBDA(const int i) {
      if (i < ncells) {
        cells(i).e = 0;
        cells(i).hits = 1;
        cells(i).w = 2.0f;
      }
      if (i == 1000)
        cells(7).hits = 3;
    });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
