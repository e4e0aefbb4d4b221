// Loops that call C library functions which touch none of the program's
// memory and order nothing (rand, the math functions) are checked before
// they run, as loops without calls.  The host fills a matrix row by row
// through rand() while an unfenced kernel reads it; the host fills the
// second half of a matrix through sin() where an unfenced kernel reads
// it, after filling the first half before a fence; a kernel whose
// iterations call exp() reads the element that the next iteration writes.
// A kernel writes its rows of a matrix, and the host, unfenced, fills the
// matrix again through rand(): each of its rows races with the kernel's.
// The host fills an array through rand() that an unfenced kernel writes;
// the host fills the first half of an array through cos(), a kernel reads
// all of it, and the host, unfenced, fills the second half.
// EXPECT: data-race view=m subkind=missing-fence nodes=host,parallel_for:sum lines=43,38
// EXPECT: data-race view=e subkind=missing-fence nodes=host,parallel_for:tail lines=57,53
// EXPECT: data-race view=y subkind=iteration-overlap nodes=parallel_for:decay,parallel_for:decay lines=61,61
// EXPECT: data-race view=p subkind=missing-fence nodes=host,parallel_for:rows lines=71,67
// EXPECT: data-race view=q subkind=missing-fence nodes=host,parallel_for:ramp lines=77,75
// EXPECT: data-race view=h subkind=missing-fence nodes=host,parallel_for:hcopy lines=90,86
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 2000, k = 100;
    Kokkos::View<int **> m("m", n, k);
    Kokkos::View<int *> rowsum("rowsum", n);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < k; j++)
        m(i, j) = rand() % n;
    Kokkos::fence();
    Kokkos::parallel_for(
        "sum", n, KOKKOS_LAMBDA(const int i) {
          int s = 0;
          for (int j = 0; j < k; j++)
            s += m(i, j);
          rowsum(i) = s;
        });
    for (int i = 0; i < n; i++)
      for (int j = 0; j < k; j++)
        m(i, j) = rand() % n;
    Kokkos::fence();
    Kokkos::View<double **> e("e", n, k), tail("tail", n, k);
    for (int i = 0; i < n / 2; i++)
      for (int j = 0; j < k; j++)
        e(i, j) = std::sin(0.001 * (i * k + j));
    Kokkos::fence();
    Kokkos::parallel_for(
        "tail", Kokkos::RangePolicy<>(n / 2, n), KOKKOS_LAMBDA(const int i) {
          for (int j = 0; j < k; j++)
            tail(i, j) = e(i, j);
        });
    for (int i = n / 2; i < n; i++)
      for (int j = 0; j < k; j++)
        e(i, j) = std::sin(0.001 * (i * k + j));
    Kokkos::fence();
    Kokkos::View<double *> y("y", n + 1);
    Kokkos::parallel_for(
        "decay", n, KOKKOS_LAMBDA(const int i) { y(i) = std::exp(-y(i + 1)); });
    Kokkos::fence();
    Kokkos::View<double **> p("p", n, k);
    Kokkos::parallel_for(
        "rows", n, KOKKOS_LAMBDA(const int i) {
          for (int j = 0; j < k; j++)
            p(i, j) = i + j;
        });
    for (int i = 0; i < n; i++)
      for (int j = 0; j < k; j++)
        p(i, j) = rand() % n + 0.5;
    Kokkos::fence();
    Kokkos::View<double *> q("q", n / 2);
    Kokkos::parallel_for(
        "ramp", n / 2, KOKKOS_LAMBDA(const int i) { q(i) = i; });
    for (int i = 0; i < n / 2; i++)
      q(i) = rand() % n;
    Kokkos::fence();
    Kokkos::View<double **> h("h", n, k), g("g", n, k);
    for (int i = 0; i < n / 2; i++)
      for (int j = 0; j < k; j++)
        h(i, j) = std::cos(0.5 * j);
    Kokkos::parallel_for(
        "hcopy", n, KOKKOS_LAMBDA(const int i) {
          for (int j = 1; j < k; j++)
            g(i, j) = h(i, j);
        });
    for (int i = n / 2; i < n; i++)
      for (int j = 0; j < k; j++)
        h(i, j) = std::cos(0.5 * j);
    Kokkos::fence();
    printf("%d %g %g %g %g %g\n", rowsum(0), tail(n - 1, 0), y(0), p(1, 1),
           q(0), g(0, 0));
  }
  Kokkos::finalize();
  return 0;
}
