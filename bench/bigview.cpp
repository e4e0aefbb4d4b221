// 10^8 iterations over a 1 GiB View, then a reduction over them: the
// memory a checker needs must not grow with the iteration count.  Not in
// the default set (python3 bench/run.py --only bigview).
#include <Kokkos_Core.hpp>
#include <cstdio>
int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const long n = 1L << 27; /* 1 GiB of doubles */
    const long iters = 100000000;
    Kokkos::View<double *> a("a", n);
    Kokkos::parallel_for("fill", iters, KOKKOS_LAMBDA(const long i) { a(i) = 0.5 * i; });
    double s = 0;
    Kokkos::parallel_reduce("sum", iters, KOKKOS_LAMBDA(const long i, double &t) { t += a(i); }, s);
    printf("%g\n", s);
  }
  Kokkos::finalize();
}
