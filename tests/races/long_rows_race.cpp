// Long rows kept as runs: races they must still show.  A kernel's
// iteration writes the first element of the next iteration's row of
// 1,000 doubles, which that iteration then reads with the rest of its
// row; the host reads a row that an unfenced kernel wrote; and the host
// fills the first rows of B while a kernel it did not fence fills the
// rest, then reads one of the kernel's rows (the two runs of B side by
// side hold different records and must stay apart).
// EXPECT: data-race view=A nodes=parallel_for:shift,parallel_for:shift lines=27,30
// EXPECT: data-race view=A subkind=missing-fence nodes=parallel_for:fill,host lines=35,39 ops=write,read
// EXPECT: data-race view=B subkind=missing-fence nodes=parallel_for:rest,host lines=46,49 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 600, m = 1000;
    Kokkos::View<double **> A("A", n, m), B("B", n, m);
    Kokkos::View<double *> y("y", n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        A(j, i) = 1.0;
    Kokkos::fence();
    Kokkos::parallel_for("shift", n - 1, KOKKOS_LAMBDA(const int j) {
      double t = 0;
      for (int i = 0; i < m; ++i)
        t += A(j, i);
      y(j) = t;
      if (j % 100 == 7)
        A(j + 1, 0) = t;
    });
    Kokkos::fence();
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < m; ++i)
        A(j, i) = j + 0.5 * i;
    });
    double s = 0;
    for (int i = 0; i < m; ++i)
      s += A(300, i);
    Kokkos::fence();
    for (int j = 0; j < 100; ++j)
      for (int i = 0; i < m; ++i)
        B(j, i) = 2.0;
    Kokkos::parallel_for("rest", Kokkos::RangePolicy<>(100, n), KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < m; ++i)
        B(j, i) = 3.0;
    });
    for (int i = 0; i < m; ++i)
      s += B(400, i);
    Kokkos::fence();
    printf("%g %g\n", s, y(3));
  }
  Kokkos::finalize();
  return 0;
}
