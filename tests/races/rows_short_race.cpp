// Short rows written one element at a time, in Views that span several
// chunks of shadow: triangles (rows of 3 ints, which end in the middle of a
// word every other row), one int and one double per iteration, and rows of
// 7 doubles and 7 ints stored with vector instructions (a sparse matrix's
// values and columns).  Races that rely on those records, on the first
// rows of a chunk, once their rule is learned: "tri", "one" and "dbl"
// write the last element of the first row there, a few rows on; "csr" the
// first value and the second column of the next row; "corners" writes a
// corner of the first triangle of a chunk that its iteration read, a few
// iterations on; the host reads a triangle that "touch" writes, before the
// fence.
// EXPECT: data-race view=tri subkind=iteration-overlap nodes=parallel_for:tri,parallel_for:tri lines=52,54 ops=write,write
// EXPECT: data-race view=one subkind=iteration-overlap nodes=parallel_for:one,parallel_for:one lines=57,59 ops=write,write
// EXPECT: data-race view=dbl subkind=iteration-overlap nodes=parallel_for:dbl,parallel_for:dbl lines=62,64 ops=write,write
// EXPECT: data-race view=val subkind=iteration-overlap nodes=parallel_for:csr,parallel_for:csr lines=70,73 ops=write,write
// EXPECT: data-race view=col subkind=iteration-overlap nodes=parallel_for:csr,parallel_for:csr lines=69,75 ops=write,write
// EXPECT: data-race view=tri subkind=iteration-overlap nodes=parallel_for:corners,parallel_for:corners lines=81,84 ops=read,write
// EXPECT: data-race view=tri subkind=missing-fence nodes=parallel_for:touch,host lines=89,91 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdint>
#include <cstdlib>

__attribute__((noinline)) int value_of(int i, int k) { return (i * 31 + k) % 1000; }

// The first index from 1 on whose element lies in the first bytes of a MiB
// of memory (kkrace's shadow keeps rules per MiB): the rows there are the
// first of their chunk, and their rule is learned from them alone.
template <class F> int first_at_mib(int n, F addr) {
  for (int i = 1; i + 1 < n; ++i)
    if ((addr(i) & 0xFFFFF) < 8)
      return i;
  return n / 2;
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000, per_row = 7;
    Kokkos::View<int **> tri("tri", n, 3);
    Kokkos::View<int *> one("one", n);
    Kokkos::View<double *> dbl("dbl", n);
    Kokkos::View<double *> val("val", n * per_row);
    Kokkos::View<int *> col("col", n * per_row);
    // (Row lengths the compiler cannot see.)
    const int K = argc > 100 ? atoi(argv[1]) : 3;
    const int jt = first_at_mib(n, [&](int i) { return (uintptr_t)&tri(i, 0); });
    const int jo = first_at_mib(n, [&](int i) { return (uintptr_t)&one(i); });
    const int jd = first_at_mib(n, [&](int i) { return (uintptr_t)&dbl(i); });
    Kokkos::parallel_for("tri", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        tri(i, k) = value_of(i, k);
      if (i == jt + 4)
        tri(jt, K - 1) = -1;
    });
    Kokkos::parallel_for("one", n, KOKKOS_LAMBDA(const int i) {
      one(i) = value_of(i, 0);
      if (i == jo + 8)
        one(jo) = -1;
    });
    Kokkos::parallel_for("dbl", n, KOKKOS_LAMBDA(const int i) {
      dbl(i) = value_of(i, 1) * 0.5;
      if (i == jd + 4)
        dbl(jd) = -1;
    });
    Kokkos::parallel_for("csr", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < per_row; ++k) {
        int j = i + (k - per_row / 2) * 97;
        col(i * per_row + k) = ((j % n) + n) % n;
        val(i * per_row + k) = k == per_row / 2 ? 4.0 : -0.5;
      }
      if (i == n / 3)
        val((i + 1) * per_row) = 1.0;
      if (i == n / 5)
        col((i + 1) * per_row + 1) = 0;
    });
    Kokkos::fence();
    Kokkos::parallel_for("corners", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += tri(i, k);
      dbl(i) = s;
      if (i == jt + 6)
        tri(jt, 0) = 0;
    });
    Kokkos::fence();
    Kokkos::parallel_for("touch", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        tri(i, k) = value_of(k, i);
    });
    const int seen = tri(n - 5, 1);
    Kokkos::fence();
    printf("%d %d %g %g %d\n", seen, one(7), dbl(9), val(11), col(13));
  }
  Kokkos::finalize();
  return 0;
}
