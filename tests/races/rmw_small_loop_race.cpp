// Elements of 4 bytes read, then written back, by their iterations
// (x(i) += ...), in MDRange and RangePolicy kernels over int and float
// Views: a neighbour's element read or updated by another iteration is a
// race, with both accesses named.
// EXPECT: data-race view=g subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=18,18 ops=read,write
// EXPECT: data-race view=f subkind=iteration-overlap nodes=parallel_for:floats,parallel_for:floats lines=21,21 ops=read,write
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 40, m = 3000;
    Kokkos::View<int **> g("g", n, n + 1);
    Kokkos::View<float *> f("f", m + 1);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    Kokkos::parallel_for(
        "rows", MD({0, 0}, {n, n}),
        KOKKOS_LAMBDA(const int i, const int j) { g(i, j) += g(i, j + 1); });
    Kokkos::fence();
    Kokkos::parallel_for("floats", m,
                         KOKKOS_LAMBDA(const int i) { f(i + 1) += 0.5f * f(i); });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
