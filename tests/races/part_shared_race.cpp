// A 2D stencil over rows of 45 words: most blocks of 16 words hold the end
// of one row and the start of the next.  A read loop of 32 words or more
// goes block by block; one that leaves its part of such a block read by
// several strands stamps that part only (part-shared blocks), and later
// loops skip it.  The first iteration writes the first interior element of
// one row and the last of another: each read that meets them later, in a
// block whose other row's part is stamped already, is still found.
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:stencil,parallel_for:stencil lines=33,36 ops=write,read
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:stencil,parallel_for:stencil lines=33,37 ops=write,read
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:stencil,parallel_for:stencil lines=33,38 ops=write,read
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:stencil,parallel_for:stencil lines=34,36 ops=write,read
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:stencil,parallel_for:stencil lines=34,37 ops=write,read
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:stencil,parallel_for:stencil lines=34,39 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int m = 40, c = 45;
    Kokkos::View<double **> u("u", m, c), v("v", m, c);
    // (Row r0's first interior element is the fourth word of its block or
    // later, row r1's last the thirteenth or earlier: each shares its
    // block with interior elements of the row next to it.)
    auto word = [&](int r, int k) { return int(reinterpret_cast<uintptr_t>(&u(r, k)) % 128 / 8); };
    int r0 = 3, r1 = 3;
    while (word(r0, 1) < 3) ++r0;
    while (word(r1, c - 2) > 12) ++r1;
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    Kokkos::parallel_for("stencil", MD({1, 1}, {m - 1, c - 1}),
                         KOKKOS_LAMBDA(const int i, const int j) {
                           if (i == 1 && j == 1) {
                             u(r0, 1) = 1.0;
                             u(r1, c - 2) = 2.0;
                           }
                           v(i, j) = u(i - 1, j) +
                                     u(i + 1, j) +
                                     u(i, j - 1) +
                                     u(i, j + 1);
                         });
    Kokkos::fence();
    printf("%g\n", v(5, 5));
  }
  Kokkos::finalize();
  return 0;
}
