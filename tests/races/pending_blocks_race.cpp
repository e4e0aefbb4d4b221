// Strand i reads elements i and i + 1 of a View: each element is read by
// two strands, and the loop check of one of the two leaves the blocks that
// the other left read by one strand each read by several without visiting
// their cells (pending blocks).  A later write in the same kernel, by
// strand i of element i or of element i + 1, as a loop or as one store,
// still meets the read of the other strand.  The same in a 2D MDRange,
// row by row.
// EXPECT: data-race view=e subkind=iteration-overlap nodes=parallel_for:next,parallel_for:next lines=26,27 ops=read,write
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:loops,parallel_for:loops lines=34,35 ops=read,write
// EXPECT: data-race view=c subkind=iteration-overlap nodes=parallel_for:single,parallel_for:single lines=38,39 ops=read,write
// EXPECT: data-race view=f subkind=iteration-overlap nodes=parallel_for:single_next,parallel_for:single_next lines=42,43 ops=read,write
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=50,51 ops=read,write
// EXPECT: data-race view=w subkind=iteration-overlap nodes=parallel_for:rows_next,parallel_for:rows_next lines=55,56 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1025;
    Kokkos::View<double *> a("a", n + 32), e("e", n + 1), c("c", n + 1),
        f("f", n + 1), b("b", n);
    // Two loops of reads, then a loop of writes: element i + 1 by strand
    // i, element i by strand i.
    Kokkos::parallel_for("next", n, KOKKOS_LAMBDA(const int i) {
      b(i) = e(i) + e(i + 1);
      e(i + 1) = 2 * b(i);
    });
    // (s(1) is the first element of a block of 16 words, s(n) the last of
    // one: the blocks that strand i's writes meet are all pending.)
    const int o = int((128 - reinterpret_cast<uintptr_t>(a.data()) % 128) % 128 / 8) + 15;
    auto s = Kokkos::subview(a, std::make_pair(o, o + n + 1));
    Kokkos::parallel_for("loops", n, KOKKOS_LAMBDA(const int i) {
      b(i) = s(i) + s(i + 1);
      s(i) = 2 * b(i);
    });
    Kokkos::parallel_for("single", n, KOKKOS_LAMBDA(const int i) {
      b(i) = c(i) + c(i + 1);
      if (i == 700) c(i) = b(i);
    });
    Kokkos::parallel_for("single_next", n, KOKKOS_LAMBDA(const int i) {
      b(i) = f(i) + f(i + 1);
      if (i == 700) f(i + 1) = b(i);
    });
    const int m = 64;
    Kokkos::View<double **> u("u", m, m + 1), w("w", m, m + 1), v("v", m, m);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    Kokkos::parallel_for("rows", MD({0, 0}, {m, m}),
                         KOKKOS_LAMBDA(const int i, const int j) {
                           v(i, j) = u(i, j) + u(i, j + 1);
                           u(i, j) = 2 * v(i, j);
                         });
    Kokkos::parallel_for("rows_next", MD({0, 0}, {m, m}),
                         KOKKOS_LAMBDA(const int i, const int j) {
                           v(i, j) = w(i, j) + w(i, j + 1);
                           w(i, j + 1) = 2 * v(i, j);
                         });
    Kokkos::fence();
    printf("%g %g %g %g %g %g\n", a(3), e(3), c(3), f(3), u(3, 3), w(3, 3));
  }
  Kokkos::finalize();
  return 0;
}
