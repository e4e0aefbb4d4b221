// Functions left out of line that read, through a reference argument
// other than the first, a captured struct (the closure's copy): their
// reads of the struct are not checked, what it points to is.  A helper
// reading the element that the next iteration writes, through a captured
// View; and a helper also called on objects in a View, where its reads
// are the program's data, checked: iteration 5 writes the cell that
// iteration 6 reads through it.
// EXPECT: data-race view=d subkind=iteration-overlap nodes=parallel_for:next,parallel_for:next lines=39,18
// EXPECT: data-race view=cells subkind=iteration-overlap nodes=parallel_for:cells,parallel_for:cells lines=25,45
#include <Kokkos_Core.hpp>
#include <cstdio>

struct Params {
  Kokkos::View<double *> data;
  int n;
};
__attribute__((noinline)) static double next_of(const int i, const Params &p) {
  return i + 1 < p.n ? p.data(i + 1) : 0.0;
}

struct Cell {
  double v;
};
__attribute__((noinline)) static double weight(const int k, const Cell &c) {
  return k * c.v;
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double *> d("d", n), out("out", n);
    Kokkos::View<Cell *> cells("cells", n);
    Params p{d, n};
    Cell c0{2.0};
    Kokkos::parallel_for(
        "next", n, KOKKOS_LAMBDA(const int i) {
          const double v = next_of(i, p);
          d(i) = v + 1.0;
        });
    Kokkos::parallel_for(
        "cells", n, KOKKOS_LAMBDA(const int i) {
          const double own = weight(1, c0);
          if (i == 5)
            cells(i + 1).v = own;
          out(i) = weight(2, cells(i));
        });
    Kokkos::fence();
    printf("%g %g\n", d(0), out(6));
  }
  Kokkos::finalize();
  return 0;
}
