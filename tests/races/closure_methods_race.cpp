// Methods of captured objects that the optimizer leaves out of line read
// the closure's copy of the object unchecked, and what it points to
// checked.  A captured table whose lookup reads the element that the next
// iteration writes; and a method also called on objects in a View, where
// its reads are the program's data, checked: iteration 5 writes the cell
// that iteration 6 reads through it.
// EXPECT: data-race view=d subkind=iteration-overlap nodes=parallel_for:lookup,parallel_for:lookup lines=38,16
// EXPECT: data-race view=cells subkind=iteration-overlap nodes=parallel_for:cells,parallel_for:cells lines=23,44
#include <Kokkos_Core.hpp>
#include <cstdio>

struct Table {
  Kokkos::View<double *> data;
  int n;
  __attribute__((noinline)) double at(const int i) const {
    return i + 1 < n ? data(i + 1) : 0.0;
  }
};

struct Cell {
  double v;
  __attribute__((noinline)) double get() const {
    return v;
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double *> d("d", n), out("out", n);
    Kokkos::View<Cell *> cells("cells", n);
    Table t{d, n};
    Cell c0{2.0};
    Kokkos::parallel_for(
        "lookup", n, KOKKOS_LAMBDA(const int i) {
          const double v = t.at(i);
          d(i) = v + 1.0;
        });
    Kokkos::parallel_for(
        "cells", n, KOKKOS_LAMBDA(const int i) {
          const double own = c0.get();
          if (i == 5)
            cells(i + 1).v = own;
          out(i) = cells(i).get();
        });
    Kokkos::fence();
    printf("%g %g\n", d(0), out(6));
  }
  Kokkos::finalize();
  return 0;
}
