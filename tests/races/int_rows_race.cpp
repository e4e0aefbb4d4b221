// Rows whose index is an int product, `3 * i + k` and `4 * i + k` (clang
// widens it as a shift of the 64-bit loop counter, then back): each
// iteration's accesses of a component are checked as one loop over the
// kernel's iterations.  Races it must still show: each iteration of one
// kernel reads the first component of the next iteration's row, which that
// iteration writes; an iteration of a kernel over [5, n) reads the last
// component of the row before its own; and the host reads a row that an
// unfenced kernel wrote.
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:next,parallel_for:next lines=26,28 ops=write,read
// EXPECT: data-race view=y subkind=iteration-overlap nodes=parallel_for:before,parallel_for:before lines=33,34 ops=write,read
// EXPECT: data-race view=y subkind=missing-fence nodes=parallel_for:before,host lines=33,36 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 20000;
    Kokkos::View<double *> x("x", 3 * n + 3), y("y", 4 * n), s("s", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      s(i) = i;
    });
    Kokkos::fence();
    Kokkos::parallel_for("next", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < 3; ++k)
        x(3 * i + k) = s(i) + k;
      if (i + 1 < n)
        s(i) = x(3 * i + 3);
    });
    Kokkos::parallel_for("before", Kokkos::RangePolicy<>(5, n),
                         KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < 4; ++k)
        y(4 * i + k) = s(i) * k;
      s(i) += y(4 * i - 1);
    });
    double t = y(4 * 100 + 2);
    Kokkos::fence();
    printf("%g\n", t);
  }
  Kokkos::finalize();
  return 0;
}
