// The host fills arrays one element at a time through a call per element,
// fenced before the kernels that read them: an array of double, one of
// int, one whose every other int only the host writes (the element beside
// each stays as the View's initialization left it), and an array the host
// fills again after a fence, from its middle on.  No report; the sums are
// checked.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

__attribute__((noinline)) static double value_of(int i) { return (double)(i % 7); }
__attribute__((noinline)) static int int_of(int i) { return i % 5; }

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    const int n = 400000;
    Kokkos::View<double *> a("a", n);
    Kokkos::View<int *> c("c", n), odd("odd", n);
    for (int i = 0; i < n; i++)
      a(i) = value_of(i);
    for (int i = 0; i < n; i++)
      c(i) = int_of(i);
    for (int i = 0; i < n; i += 2)
      odd(i) = 1;
    Kokkos::fence();
    double sa = 0;
    long sc = 0, so = 0;
    Kokkos::parallel_reduce(
        "sa", n, KOKKOS_LAMBDA(const int i, double &t) { t += a(i); }, sa);
    Kokkos::parallel_reduce(
        "sc", n, KOKKOS_LAMBDA(const int i, long &t) { t += c(i) + odd(i); }, sc);
    Kokkos::fence();
    for (int i = n / 2; i < n; i++)
      a(i) = value_of(i + 1);
    Kokkos::fence();
    double sb = 0;
    Kokkos::parallel_reduce(
        "sb", n, KOKKOS_LAMBDA(const int i, double &t) { t += a(i); }, sb);
    Kokkos::parallel_reduce(
        "so", n, KOKKOS_LAMBDA(const int i, long &t) { t += odd(i); }, so);
    Kokkos::fence();
    double wa = 0, wb = 0;
    long wc = 0;
    for (int i = 0; i < n; i++) {
      wa += i % 7;
      wb += i < n / 2 ? i % 7 : (i + 1) % 7;
      wc += i % 5 + (i % 2 == 0);
    }
    bad = sa != wa || sb != wb || sc != wc || so != n / 2;
    printf("%g %g %ld %ld\n", sa, sb, sc, so);
  }
  Kokkos::finalize();
  return bad;
}
