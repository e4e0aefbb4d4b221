// Loops that call C library functions which touch none of the program's
// memory (rand, the math functions) are checked before they run, as loops
// without calls, and report nothing where everything is ordered: the host
// fills arrays through rand() and sin() and fences before kernels read
// them; a kernel's iterations call exp() and pow() on their own elements;
// the host refills an array after a fence.  The math functions set errno,
// which is the thread's own: a loop counting the domain errors of log()
// through errno reads what each call wrote, and the count must be right.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  int bad = 0;
  Kokkos::initialize(argc, argv);
  {
    const int n = 2000, k = 100;
    srand(7);
    Kokkos::View<int **> m("m", n, k);
    Kokkos::View<long *> rowsum("rowsum", n);
    long want = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < k; j++)
        m(i, j) = rand() % n;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < k; j++)
        want += m(i, j);
    Kokkos::fence();
    Kokkos::parallel_for(
        "sum", n, KOKKOS_LAMBDA(const int i) {
          long s = 0;
          for (int j = 0; j < k; j++)
            s += m(i, j);
          rowsum(i) = s;
        });
    Kokkos::fence();
    long got = 0;
    for (int i = 0; i < n; i++)
      got += rowsum(i);
    if (got != want) {
      printf("sum %ld, want %ld\n", got, want);
      bad = 1;
    }
    for (int i = 0; i < n; i++)
      for (int j = 0; j < k; j++)
        m(i, j) = rand() % n;

    Kokkos::View<double **> e("e", n, k);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < k; j++)
        e(i, j) = std::sin(0.001 * (i * k + j));
    Kokkos::fence();
    Kokkos::parallel_for(
        "grow", n, KOKKOS_LAMBDA(const int i) {
          for (int j = 0; j < k; j++)
            e(i, j) = std::exp(e(i, j)) + std::pow(e(i, j), 2.0);
        });
    Kokkos::fence();
    double x = std::sin(0.001 * (n * k - 1));
    double last = std::exp(x) + std::pow(x, 2.0);
    if (std::fabs(e(n - 1, k - 1) - last) > 1e-12) {
      printf("e %g, want %g\n", e(n - 1, k - 1), last);
      bad = 1;
    }

    Kokkos::View<double *> v("v", n);
    for (int i = 0; i < n; i++)
      v(i) = (i % 3 == 0) ? -1.0 - i : 1.0 + i;
    int domain = 0;
    for (int i = 0; i < n; i++) {
      errno = 0;
      double l = std::log(v(i));
      if (errno == EDOM)
        domain++;
      v(i) = std::isnan(l) ? 0.0 : l;
    }
    if (domain != (n + 2) / 3) {
      printf("errno counted %d domain errors, want %d\n", domain,
             (n + 2) / 3);
      bad = 1;
    }
    Kokkos::parallel_for(
        "scale", n, KOKKOS_LAMBDA(const int i) { v(i) *= 2; });
    Kokkos::fence();
    printf("%ld %g %g\n", got, e(0, 1), v(1));
  }
  Kokkos::finalize();
  return bad;
}
