// MDRange kernels over Views larger than an MDRange item's strand ids pack
// (2048 x 1024 elements: rows from 1023 on take ids that go on from the
// packed ones, so that a fill of the rows is one rule of runs): the host's
// write of an element that "fill" wrote, with no fence between; "shift",
// whose iteration (i, j) reads the element that (i, j + 1) writes; "up",
// whose iteration (i, j) reads the element of the row above that (i - 1, j)
// writes; "halves", the same as "shift" over an array of int; "narrow",
// whose iteration (i, j) reads the element that (i, j - 1) writes, in rows
// of 600 (its ids laid out by them) beyond the packed ones; and "deep", a
// 3D kernel whose iteration (i, j, k) reads the element that (i, j, k + 1)
// writes, in planes beyond the packed ones.
// EXPECT: data-race view=A subkind=missing-fence nodes=parallel_for:fill,host lines=32,34 ops=write,write
// EXPECT: data-race view=B subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift lines=37,37 ops=read,write
// EXPECT: data-race view=C subkind=iteration-overlap nodes=parallel_for:up,parallel_for:up lines=39,39 ops=read,write
// EXPECT: data-race view=H subkind=iteration-overlap nodes=parallel_for:halves,parallel_for:halves lines=41,41 ops=read,write
// EXPECT: data-race view=N subkind=iteration-overlap nodes=parallel_for:narrow,parallel_for:narrow lines=43,43 ops=read,write
// EXPECT: data-race view=D subkind=iteration-overlap nodes=parallel_for:deep,parallel_for:deep lines=45,45 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 2048, m = 1024;
    using MD2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    using MD3 = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;
    Kokkos::View<double **> A("A", n, m), B("B", n, m), C("C", n, m);
    Kokkos::View<int **> H("H", n, m);
    Kokkos::View<double **> N("N", 2000, 600);
    Kokkos::View<double ***> D("D", 200, 64, 64);
    Kokkos::parallel_for("fill", MD2({0, 0}, {n, m}), KOKKOS_LAMBDA(const int i, const int j) {
      A(i, j) = B(i, j) = C(i, j) = H(i, j) = i + j;
    });
    A(1500, 7) = 0;
    Kokkos::fence();
    Kokkos::parallel_for("shift", MD2({1100, 0}, {n, m - 1}),
                         KOKKOS_LAMBDA(const int i, const int j) { B(i, j) = B(i, j + 1); });
    Kokkos::parallel_for("up", MD2({1101, 0}, {n, m}),
                         KOKKOS_LAMBDA(const int i, const int j) { C(i, j) = C(i - 1, j); });
    Kokkos::parallel_for("halves", MD2({1100, 0}, {n, m - 1}),
                         KOKKOS_LAMBDA(const int i, const int j) { H(i, j) = H(i, j + 1); });
    Kokkos::parallel_for("narrow", MD2({1800, 1}, {2000, 600}),
                         KOKKOS_LAMBDA(const int i, const int j) { N(i, j) = N(i, j - 1) + 1; });
    Kokkos::parallel_for("deep", MD3({130, 0, 0}, {200, 64, 63}),
                         KOKKOS_LAMBDA(const int i, const int j, const int k) { D(i, j, k) = D(i, j, k + 1); });
    Kokkos::fence();
    printf("%g %g %g %d %g\n", A(9, 9), B(1999, 3), C(2000, 5), H(1999, 3), D(150, 3, 3));
  }
  Kokkos::finalize();
  return 0;
}
